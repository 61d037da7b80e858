/**
 * Event source mapping throughput and latency (issue #7 figures):
 *
 * - records/s from commit to a no-op handler (BatchSize 100, window 0), target ≥ 100,000:
 *   - delivery: 200,000 records already committed, read from TRIM_HORIZON, batched and invoked;
 *     next to a `changes$` replay that builds the same records with no mapping (the baseline);
 *   - live: writes and deliveries interleaved, next to the same writes with no mapping (the
 *     write path bounds this one: a record cannot be delivered faster than it is written);
 * - commit-to-invocation latency at a paced rate, p50/p99, next to a live `changes$` subscriber
 *   in the same run; target p50 ≤ 1 ms.
 *
 * Run: npm run bench (all benches) or npm run bench -- mappings (BENCH_TSX=1: through tsx)
 */
import { performance } from 'node:perf_hooks';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { Engine } from '../core/engine.js';
import { LocalFunctions } from '../infra/functions/localFunctions.js';
import { ChangeLog } from '../streams/changeLog.js';
import { changes$ } from '../streams/changes.js';
import { MappingManager } from '../streams/mapping/manager.js';
import { ordinalOf } from '../streams/sequenceNumber.js';
import { createCustomerTable, customerPuts } from './fixtures.js';
import { formatMicros, formatRate, nextTurn, percentile, printTable, putPaced, type Row } from './support.js';

const KEYS = 50_000;
const WRITES = 200_000;
const SLICE = 10_000;
const ROUNDS = 3;
const RATE = 5_000;
const LATENCY_SECONDS = 2;
const WARMUP = 2_000;

function setup(table: string) {
  const engine = new Engine();
  const changeLog = ChangeLog.attach(engine);
  const streamArn = createCustomerTable(engine, table, { stream: true })!;
  const functions = new LocalFunctions({ clock: engine.clock });
  const manager = new MappingManager({ changeLog, functions, settler: engine });
  return { engine, changeLog, functions, manager, streamArn };
}

/** Maps the stream to a no-op function (BatchSize 100, window 0) that passes each batch to `handle`. */
function mapToNoop(
  { functions, manager, streamArn }: ReturnType<typeof setup>,
  startingPosition: 'LATEST' | 'TRIM_HORIZON',
  handle: (event: DynamoDBStreamEvent) => void,
): void {
  functions.define({
    name: 'noop',
    handler: async (event: DynamoDBStreamEvent) => handle(event),
    logLimit: 0,
  });
  manager.create({
    FunctionName: 'noop',
    EventSourceArn: streamArn,
    StartingPosition: startingPosition,
    BatchSize: 100,
  });
}

/** Records per second from the first commit to the last record handled (or written, baseline). */
async function throughput(withMapping: boolean): Promise<number> {
  const stack = setup('Bench');
  const { engine, manager } = stack;
  let handled = 0;
  if (withMapping) {
    mapToNoop(stack, 'LATEST', (event) => {
      handled += event.Records.length;
    });
  }
  const inputs = customerPuts('Bench', WRITES, KEYS);
  const start = performance.now();
  // Writes in slices, yielding between them as a server would between requests.
  for (let from = 0; from < WRITES; from += SLICE) {
    for (let i = from; i < from + SLICE; i++) engine.executeRaw('PutItem', inputs[i]);
    await nextTurn();
  }
  while (withMapping && handled < WRITES) await nextTurn();
  const seconds = (performance.now() - start) / 1000;
  manager.close();
  return WRITES / seconds;
}

/** Records per second delivered from a backlog: through a mapping, or replayed by changes$. */
async function delivery(via: 'mapping' | 'changes$'): Promise<number> {
  const stack = setup('Backlog');
  const { engine, changeLog, manager } = stack;
  const inputs = customerPuts('Backlog', WRITES, KEYS);
  for (const input of inputs) engine.executeRaw('PutItem', input);
  let handled = 0;
  const start = performance.now();
  if (via === 'mapping') {
    mapToNoop(stack, 'TRIM_HORIZON', (event) => {
      handled += event.Records.length;
    });
    while (handled < WRITES) await nextTurn();
  } else {
    await new Promise<void>((resolve) =>
      changes$(changeLog, 'Backlog', { from: 'TRIM_HORIZON', follow: false }).subscribe({
        next: () => handled++,
        complete: resolve,
      }),
    );
  }
  const seconds = (performance.now() - start) / 1000;
  manager.close();
  return WRITES / seconds;
}

async function bestOf(measure: () => Promise<number>): Promise<number> {
  let best = 0;
  for (let round = 0; round < ROUNDS; round++) best = Math.max(best, await measure());
  return best;
}

/**
 * Commit-to-invocation latencies (ms) while writes arrive at RATE per second, each write ending
 * its task as a request does; `via` picks the mapping or a live changes$ subscriber.
 */
async function latencies(via: 'mapping' | 'changes$'): Promise<number[]> {
  const stack = setup('Paced');
  const { engine, changeLog, manager } = stack;
  const total = WARMUP + RATE * LATENCY_SECONDS;
  const inputs = customerPuts('Paced', total, KEYS);
  const committedAt = new Float64Array(total);
  const latency: number[] = [];
  const seen = (sequenceNumber: string) => {
    // A fresh stream numbers its records 1, 2, 3...: the ordinal names the write.
    latency.push(performance.now() - committedAt[ordinalOf(sequenceNumber) - 1]!);
  };
  let subscription: { unsubscribe(): void } | undefined;
  if (via === 'mapping') {
    mapToNoop(stack, 'LATEST', (event) => {
      for (const record of event.Records) seen(record.dynamodb!.SequenceNumber!);
    });
  } else {
    subscription = changes$(changeLog, 'Paced').subscribe((record) => seen(record.dynamodb!.SequenceNumber!));
  }
  await putPaced(engine, inputs, RATE, committedAt);
  while (latency.length < total) await nextTurn();
  subscription?.unsubscribe();
  manager.close();
  return latency.slice(WARMUP).sort((a, b) => a - b);
}

export async function run(): Promise<Row[]> {
  // Latency first, on a small heap.
  const viaChanges = await latencies('changes$');
  const viaMapping = await latencies('mapping');
  const replayed = await bestOf(() => delivery('changes$'));
  const delivered = await bestOf(() => delivery('mapping'));
  const baseline = await bestOf(() => throughput(false));
  const mapped = await bestOf(() => throughput(true));
  const rows: Row[] = [
    { name: 'changes$ replay of a 200,000-record backlog', value: `${formatRate(replayed)} records` },
    {
      name: 'mapping delivery of that backlog → no-op handler',
      value: `${formatRate(delivered)} records`,
      baseline: formatRate(replayed),
      ratio: delivered / replayed,
      target: '≥ 100,000 records/s',
    },
    { name: 'PutItem with a stream, no mapping', value: formatRate(baseline) },
    {
      name: 'live: PutItem → no-op handler (BatchSize 100, window 0)',
      value: `${formatRate(mapped)} records`,
      baseline: formatRate(baseline),
      ratio: mapped / baseline,
    },
    {
      name: `changes$ latency at ${RATE.toLocaleString('en-US')} writes/s`,
      value: `p50 ${formatMicros(percentile(viaChanges, 0.5))}, p99 ${formatMicros(percentile(viaChanges, 0.99))}`,
    },
    {
      name: `commit → invocation latency at ${RATE.toLocaleString('en-US')} writes/s`,
      value: `p50 ${formatMicros(percentile(viaMapping, 0.5))}, p99 ${formatMicros(percentile(viaMapping, 0.99))}`,
      baseline: `p50 ${formatMicros(percentile(viaChanges, 0.5))}`,
      ratio: percentile(viaMapping, 0.5) / percentile(viaChanges, 0.5),
      target: 'p50 ≤ 1 ms',
    },
  ];
  printTable(
    `Event source mappings (${WRITES.toLocaleString('en-US')} writes of ~200-byte items, best of ${ROUNDS})`,
    rows,
  );
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
