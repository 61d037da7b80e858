/**
 * Streams cost and latency (issue #5 figures):
 *
 * - in-process PutItem throughput (each write changes its item, so each one is a stream record)
 *   on a table without a stream, with a NEW_AND_OLD_IMAGES stream, and with that stream plus a
 *   live `changes$` subscriber; target: the stream costs ≤ 30 % of write throughput;
 * - commit-to-subscriber latency of `changes$` at a paced 20,000 writes/s, p50/p99/max;
 *   target p99 ≤ 1 ms.
 *
 * Run: npm run bench (all benches) or npm run bench -- streams (BENCH_TSX=1: through tsx)
 */
import { performance } from 'node:perf_hooks';
import { Engine } from '../core/engine.js';
import { ChangeLog } from '../streams/changeLog.js';
import { changes$ } from '../streams/changes.js';
import { ordinalOf } from '../streams/sequenceNumber.js';
import { createCustomerTable, customerPuts } from './fixtures.js';
import { formatMicros, formatRate, nextTurn, percentile, printTable, putPaced, type Row } from './support.js';

const KEYS = 100_000;
const WRITES = 200_000;
const ROUNDS = 3;
const RATE = 20_000;
const LATENCY_SECONDS = 3;
const WARMUP = 10_000;

function engineWith(table: string, stream: boolean): { engine: Engine; changeLog: ChangeLog } {
  const engine = new Engine();
  const changeLog = ChangeLog.attach(engine);
  createCustomerTable(engine, table, { stream });
  return { engine, changeLog };
}

/** Writes per second for one fresh engine (the first KEYS writes insert, the rest modify). */
async function writeRate(mode: 'off' | 'on' | 'subscribed'): Promise<number> {
  const { engine, changeLog } = engineWith('Bench', mode !== 'off');
  const inputs = customerPuts('Bench', WRITES, KEYS);
  let delivered = 0;
  const subscription =
    mode === 'subscribed' ? changes$(changeLog, 'Bench').subscribe(() => delivered++) : undefined;
  const start = performance.now();
  // Writes in slices, yielding between them so a subscriber runs as it would in a server.
  for (let from = 0; from < WRITES; from += 10_000) {
    for (let i = from; i < from + 10_000; i++) engine.executeRaw('PutItem', inputs[i]);
    if (subscription) await nextTurn();
  }
  while (subscription && delivered < WRITES) await nextTurn();
  const seconds = (performance.now() - start) / 1000;
  subscription?.unsubscribe();
  return WRITES / seconds;
}

async function bestOf(mode: 'off' | 'on' | 'subscribed'): Promise<number> {
  let best = 0;
  for (let round = 0; round < ROUNDS; round++) best = Math.max(best, await writeRate(mode));
  return best;
}

/** Commit-to-delivery latencies (ms) of a live subscriber while writes arrive at RATE per second. */
async function latencies(): Promise<number[]> {
  const { engine, changeLog } = engineWith('Paced', true);
  const total = WARMUP + RATE * LATENCY_SECONDS;
  const inputs = customerPuts('Paced', total, KEYS);
  const committedAt = new Float64Array(total);
  const latency: number[] = [];
  const subscription = changes$(changeLog, 'Paced').subscribe((record) => {
    // A fresh stream numbers its records 1, 2, 3...: the ordinal names the write.
    const index = ordinalOf(record.dynamodb!.SequenceNumber!) - 1;
    latency.push(performance.now() - committedAt[index]!);
  });
  // The first WARMUP writes warm the JIT and are left out of the figures.
  await putPaced(engine, inputs, RATE, committedAt);
  while (latency.length < total) await nextTurn();
  subscription.unsubscribe();
  return latency.slice(WARMUP).sort((a, b) => a - b);
}

export async function run(): Promise<Row[]> {
  // Latency first, on a small heap: the throughput rounds leave large heaps behind.
  const sorted = await latencies();
  await writeRate('off');
  const off = await bestOf('off');
  const on = await bestOf('on');
  const subscribed = await bestOf('subscribed');
  const rows: Row[] = [
    { name: 'PutItem, no stream', value: formatRate(off) },
    {
      name: 'PutItem, NEW_AND_OLD_IMAGES stream',
      value: formatRate(on),
      baseline: formatRate(off),
      ratio: on / off,
      target: 'cost ≤ 30 % (≥ 0.70×)',
    },
    {
      name: '… plus a live changes$ subscriber',
      value: formatRate(subscribed),
      baseline: formatRate(off),
      ratio: subscribed / off,
    },
    {
      name: `changes$ latency at ${RATE.toLocaleString('en-US')} writes/s`,
      value: `p50 ${formatMicros(percentile(sorted, 0.5))}, p99 ${formatMicros(percentile(sorted, 0.99))}, max ${formatMicros(sorted.at(-1)!)}`,
      target: 'p99 ≤ 1 ms',
    },
  ];
  printTable(
    `Streams (${WRITES.toLocaleString('en-US')} writes of ~200-byte items, best of ${ROUNDS})`,
    rows,
  );
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
