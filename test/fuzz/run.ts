/**
 * `npm run fuzz [-- runs]`: the long fuzz run (10,000 cases by default; FUZZ_SEED=n to replay a
 * run). Sends every case, counts what came back and prints the tally; exits 1 if any case
 * answered 5xx, crashed the server or changed state with a refused write.
 */
import fc from 'fast-check';
import type { CaseOutcome } from './harness.js';
import { startFuzzTarget, TARGETS } from './harness.js';
import { type FuzzCase, fuzzCaseArb } from './mutations.js';

const runs = Number(process.argv[2] ?? process.env.FUZZ_RUNS ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

let uncaught = 0;
process.on('uncaughtException', (error) => {
  uncaught++;
  console.error('uncaught exception:', error);
});
process.on('unhandledRejection', (error) => {
  uncaught++;
  console.error('unhandled rejection:', error);
});

const target = await startFuzzTarget();
const started = performance.now();
const byStatus = new Map<number, number>();
const byTarget = new Map<string, number>();
const failures: { fuzzCase: FuzzCase; outcome: CaseOutcome }[] = [];
let serverErrors = 0;
let crashes = 0;
let stateChanges = 0;
let internal = 0;
let done = 0;
for (const fuzzCase of fc.sample(fuzzCaseArb, { numRuns: runs, seed })) {
  const outcome = await target.run(fuzzCase);
  if (++done % 1_000 === 0)
    console.error(`… ${done} cases, rss ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MiB`);
  byStatus.set(outcome.status, (byStatus.get(outcome.status) ?? 0) + 1);
  byTarget.set(outcome.target, (byTarget.get(outcome.target) ?? 0) + 1);
  if (outcome.status >= 500) serverErrors++;
  if (outcome.crashed) crashes++;
  if (outcome.stateChanged) stateChanges++;
  if (outcome.internalErrors.length > 0) internal++;
  if (outcome.status >= 500 || outcome.crashed || outcome.stateChanged || outcome.internalErrors.length > 0)
    failures.push({ fuzzCase, outcome });
}
// The server still answers after the whole run.
const last = await target.run({ kind: 'mutated', template: 0, target: -1, mutations: [] });
if (last.crashed) crashes++;
await target.close();

const seconds = (performance.now() - started) / 1000;
const statuses = [...byStatus.entries()]
  .sort(([a], [b]) => a - b)
  .map(([status, count]) => `${status}: ${count}`);
const untouched = [...TARGETS].filter((name) => !byTarget.has(name));
console.log(`fuzz: ${runs} cases in ${seconds.toFixed(1)} s (seed ${seed}), ${byTarget.size} targets`);
console.log(`  statuses   ${statuses.join(', ')}`);
console.log(`  5xx        ${serverErrors}`);
console.log(`  crashes    ${crashes + uncaught}`);
console.log(`  state changes after refused writes  ${stateChanges}`);
console.log(`  internal errors reported            ${internal}`);
if (untouched.length > 0) console.log(`  operations never sent: ${untouched.join(', ')}`);
for (const { fuzzCase, outcome } of failures.slice(0, 5)) {
  console.log(`\nfailure: ${outcome.target} → ${outcome.status}${outcome.crashed ? ' (crashed)' : ''}`);
  console.log(`  case   ${JSON.stringify(fuzzCase).slice(0, 400)}`);
  console.log(`  sent   ${outcome.sent}`);
  console.log(`  answer ${outcome.answer}`);
  for (const error of outcome.internalErrors.slice(0, 2)) console.log(`  error  ${error.slice(0, 800)}`);
}
process.exit(failures.length > 0 || crashes + uncaught > 0 || untouched.length > 0 ? 1 : 0);
