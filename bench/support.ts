/** Small helpers shared by the benchmarks: timing, formatting, a results table. */

export interface Row {
  name: string;
  value: string;
  baseline?: string;
  /** eddy ÷ baseline. */
  ratio?: number;
  target?: string;
}

/** Runs `operation(i)` for i in 0..count-1 after a warm-up; returns operations per second. */
export function measure(count: number, operation: (i: number) => unknown): number {
  const warmup = Math.min(count, 20_000);
  for (let i = 0; i < warmup; i++) operation(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) operation(i);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return count / seconds;
}

export function formatRate(opsPerSecond: number): string {
  return `${Math.round(opsPerSecond).toLocaleString('en-US')}/s`;
}

export function printTable(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  const lines = rows.map((row) => [
    row.name,
    row.value,
    row.baseline ?? '',
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`,
    row.target ?? '',
  ]);
  const header = ['measure', 'eddy', 'baseline', 'ratio', 'target'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  );
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}
