/**
 * Names the JIT code in a callgrind dump of node run with `--perf-basic-prof` (the
 * `BENCH_WORKLOAD_PERF_MAP=1` dumps of bench/workloadInstructions.ts): callgrind knows no symbols
 * for V8's generated code and names such a function by its address; node's perf map
 * (/tmp/perf-<pid>.map: start, size, name per code object) says which JavaScript function lies
 * there. Prints the functions with the most instructions, self and inclusive, per request.
 *
 * Run: npx tsx bench/callgrindJit.ts <dump> <perf map> [requests] [top] [callers-of]
 * With `callers-of` (a substring of a function name, e.g. `Builtin_JsonParse`), it also prints
 * who calls the matching functions and what those calls cost inclusive.
 */
import { readFileSync } from 'node:fs';

interface Code {
  readonly start: number;
  readonly end: number;
  readonly name: string;
}

function perfMap(file: string): Code[] {
  const codes: Code[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (match === null) continue;
    const start = Number.parseInt(match[1]!, 16);
    codes.push({ start, end: start + Number.parseInt(match[2]!, 16), name: match[3]! });
  }
  // A later entry at the same address is newer code (the map is appended as code is made).
  return codes.sort((a, b) => a.start - b.start);
}

function lookup(codes: readonly Code[], address: number): string | undefined {
  let low = 0;
  let high = codes.length - 1;
  let found: Code | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codes[middle]!.start <= address) {
      found = codes[middle];
      low = middle + 1;
    } else high = middle - 1;
  }
  return found !== undefined && address < found.end ? found.name : undefined;
}

/** Self and inclusive Ir per function name, from callgrind's format (name compression included). */
function costs(file: string): {
  self: Map<string, number>;
  inclusive: Map<string, number>;
  total: number;
  callers: Map<string, Map<string, number>>;
} {
  const names = new Map<string, string>();
  const name = (spec: string) => {
    const match = /^\((\d+)\)(?: (.*))?$/.exec(spec.trim());
    if (match === null) return spec.trim();
    if (match[2] !== undefined) names.set(match[1]!, match[2]);
    return names.get(match[1]!) ?? spec;
  };
  const self = new Map<string, number>();
  const calls = new Map<string, number>();
  /** callee → caller → inclusive Ir of the calls. */
  const callers = new Map<string, Map<string, number>>();
  let current = '';
  let callee: string | undefined;
  let afterCalls = false;
  let total = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('fn=')) {
      current = name(line.slice(3));
      continue;
    }
    if (line.startsWith('cfn=')) {
      callee = name(line.slice(4));
      continue;
    }
    if (line.startsWith('calls=')) {
      afterCalls = true;
      continue;
    }
    if (!/^[0-9+*-]/.test(line)) continue;
    const cost = Number(line.split(' ')[1] ?? 0);
    if (afterCalls) {
      afterCalls = false;
      // Inclusive cost of a call: counted for the caller once (recursion is counted again).
      if (callee !== current) calls.set(current, (calls.get(current) ?? 0) + cost);
      if (callee !== undefined) {
        const from = callers.get(callee) ?? new Map<string, number>();
        callers.set(callee, from);
        from.set(current, (from.get(current) ?? 0) + cost);
      }
      continue;
    }
    self.set(current, (self.get(current) ?? 0) + cost);
    total += cost;
  }
  const inclusive = new Map<string, number>();
  for (const [fn, cost] of self) inclusive.set(fn, cost + (calls.get(fn) ?? 0));
  for (const [fn, cost] of calls) if (!self.has(fn)) inclusive.set(fn, cost);
  return { self, inclusive, total, callers };
}

const [dump, map, requestsText = '1', topText = '60', callersOf] = process.argv.slice(2);
if (dump === undefined || map === undefined) {
  console.error('usage: tsx bench/callgrindJit.ts <dump> <perf map> [requests] [top] [callers-of substring]');
  process.exit(2);
}
const codes = perfMap(map);
const requests = Number(requestsText);
const named = (fn: string) => {
  const address = /^0x([0-9a-f]+)$/i.exec(fn);
  if (address === null) return fn;
  return lookup(codes, Number.parseInt(address[1]!, 16)) ?? 'JIT code (unnamed)';
};
const { self, inclusive, total, callers } = costs(dump);
const byName = (from: Map<string, number>) => {
  const sums = new Map<string, number>();
  for (const [fn, cost] of from) sums.set(named(fn), (sums.get(named(fn)) ?? 0) + cost);
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, Number(topText));
};
const k = (value: number) => `${(value / requests / 1000).toFixed(1)}k`.padStart(9);
console.log(`total ${k(total)} instructions per request\n\nself:`);
for (const [fn, cost] of byName(self)) console.log(`${k(cost)}  ${fn}`);
console.log('\ninclusive:');
for (const [fn, cost] of byName(inclusive)) console.log(`${k(cost)}  ${fn}`);

if (callersOf !== undefined) {
  // Who calls the functions whose name contains `callersOf`, and how much those calls cost.
  const sums = new Map<string, number>();
  for (const [callee, from] of callers) {
    const calleeName = named(callee);
    if (!calleeName.includes(callersOf)) continue;
    for (const [caller, cost] of from) {
      const key = `${named(caller)}  →  ${calleeName}`;
      sums.set(key, (sums.get(key) ?? 0) + cost);
    }
  }
  console.log(`\ncallers of *${callersOf}*:`);
  for (const [key, cost] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, Number(topText)))
    console.log(`${k(cost)}  ${key}`);
}
