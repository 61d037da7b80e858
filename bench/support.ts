import { performance } from 'node:perf_hooks';
import type { Engine } from '../core/engine.js';

/** Small helpers shared by the benchmarks: timing, pacing, formatting, a results table. */

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

/** Lets the event loop turn once: what a server does between requests. */
export const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * PutItem of each input at `rate` writes per second, noting each commit time in `committedAt`.
 * Each write ends its task, as each request does on a server, so what it triggers in microtasks
 * (a stream delivery) runs right after it. (Writes made back to back in one synchronous task are
 * delivered when the task ends: a record then also waits for the writes after it, which measures
 * the caller's batch and the machine's load rather than the stream.)
 */
export async function putPaced(
  engine: Engine,
  inputs: readonly unknown[],
  rate: number,
  committedAt: Float64Array,
): Promise<void> {
  const start = performance.now();
  let written = 0;
  while (written < inputs.length) {
    const due = Math.min(inputs.length, Math.floor(((performance.now() - start) * rate) / 1000));
    while (written < due) {
      engine.executeRaw('PutItem', inputs[written]);
      committedAt[written] = performance.now();
      written++;
      await undefined;
    }
    await nextTurn();
  }
}

/** The value at fraction `p` (0..1) of ascending `sorted`. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** A latency in milliseconds, printed in whole microseconds. */
export const formatMicros = (milliseconds: number) => `${(milliseconds * 1000).toFixed(0)} µs`;

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
