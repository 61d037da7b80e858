/**
 * TTL (issue #8 figures): a run of the ttl-expirer over a table of 1,000,000 items that all carry
 * a TTL, first with none expired (one scheduled run: target ≤ 5 ms), then with 100,000 expired
 * (drained in batches of 1,000 through the middy handler, the port and the commit, with a
 * commit listener subscribed so change events are delivered: target ≥ 100,000 deletions/s),
 * next to a plain-Map delete loop measured in the same run. Also: PutItem with and without TTL
 * (the commit hook's cost), the time to build the index when TTL is enabled on a full table, the
 * heap it costs per TTL'd item (run with --expose-gc for a clean figure), and a second drain
 * from that rebuilt index.
 *
 * Run: npm run bench (all benches) or npm run bench -- ttl (BENCH_TSX=1: through tsx)
 */
import { VirtualClock } from '../core/clock.js';
import { Engine } from '../core/engine.js';
import { startTtlExpirer } from '../infra/schedules/ttlExpirer.js';
import { formatRate, measure, printTable, type Row } from './support.js';

const ITEM_COUNT = 1_000_000;
const EXPIRED_COUNT = 100_000;
const TABLE = 'BenchTtl';
const T0 = Date.UTC(2026, 0, 1);
const T0_S = T0 / 1000;

function gc() {
  (globalThis as { gc?: () => void }).gc?.();
}

function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/** Every tenth item expires 1,000 s after T0, the others in about eleven days. */
function makeItem(i: number) {
  return {
    pk: { S: `session#${String(i).padStart(8, '0')}` },
    ttl: { N: String(i % 10 === 0 ? T0_S + 1_000 : T0_S + 1_000_000 + (i % 3_600)) },
    user: { S: `user${i % 50_000}` },
    data: { S: 'x'.repeat(40) },
  };
}

function createTable(engine: Engine, name: string): void {
  engine.execute('CreateTable', {
    TableName: name,
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
}

const enable = (engine: Engine, name: string) =>
  engine.execute('UpdateTimeToLive', {
    TableName: name,
    TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
  });

const milliseconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/**
 * PutItem rate on a fresh table (200,000 inserts), with or without TTL enabled. `rising` TTLs
 * are `now + 30 min` as an application writes them (the index grows at its right edge);
 * otherwise the values of `makeItem`, scattered over an hour, which makes every index insert
 * land somewhere else in the tree (cache misses: the worst case).
 */
function putRate(withTtl: boolean, rising: boolean): number {
  const engine = new Engine({ clock: new VirtualClock(T0) });
  createTable(engine, 'PutBench');
  if (withTtl) enable(engine, 'PutBench');
  const inputs = Array.from({ length: 200_000 }, (_, i) => {
    const Item = makeItem(i);
    if (rising) Item.ttl = { N: String(T0_S + 1_800 + Math.floor(i / 100)) };
    return { TableName: 'PutBench', Item };
  });
  return measure(inputs.length, (i) => engine.executeRaw('PutItem', inputs[i]));
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];

  for (const rising of [true, false]) {
    // Best of two, alternating, each on a fresh engine after a GC: the heap left by the previous
    // engine otherwise taxes whichever runs second.
    let plainPut = 0;
    let ttlPut = 0;
    for (let round = 0; round < 2; round++) {
      gc();
      plainPut = Math.max(plainPut, putRate(false, rising));
      gc();
      ttlPut = Math.max(ttlPut, putRate(true, rising));
    }
    rows.push({
      name: `PutItem, TTL enabled (${rising ? 'TTL = now + 30 min' : 'TTLs scattered'})`,
      value: formatRate(ttlPut),
      baseline: `${formatRate(plainPut)} without TTL`,
      ratio: ttlPut / plainPut,
    });
  }

  // The table as applications build it: TTL enabled first, items written with their TTL.
  const clock = new VirtualClock(T0);
  const engine = new Engine({ clock, ttlChangeLockoutMs: 0 });
  createTable(engine, TABLE);
  enable(engine, TABLE);
  for (let i = 0; i < ITEM_COUNT; i++) engine.executeRaw('PutItem', { TableName: TABLE, Item: makeItem(i) });
  let delivered = 0;
  engine.onCommit(() => {
    delivered++;
  });
  const ttl = startTtlExpirer(engine, { start: false });

  // 0 expired: one scheduled run finds nothing (20 runs after a warm-up).
  gc();
  const idle: number[] = [];
  for (let i = 0; i < 25; i++) {
    const start = process.hrtime.bigint();
    const result = await ttl.runNow();
    if (i >= 5) idle.push(milliseconds(start));
    if (result.deleted !== 0) throw new Error('bench: expected nothing to expire');
  }
  idle.sort((a, b) => a - b);
  rows.push({
    name: 'expirer run, 1,000,000 items, 0 expired',
    value: `${idle[Math.floor(idle.length / 2)]!.toFixed(3)} ms median, ${idle.at(-1)!.toFixed(3)} ms max`,
    baseline: '20 runs',
    target: '≤ 5 ms',
  });

  // Baseline: deleting 100,000 keys from a 1,000,000-entry Map.
  const map = new Map<string, string>();
  for (let i = 0; i < ITEM_COUNT; i++) map.set(`session#${String(i).padStart(8, '0')}`, 'x');
  const mapKeys = Array.from(
    { length: EXPIRED_COUNT },
    (_, i) => `session#${String(i * 10).padStart(8, '0')}`,
  );
  const mapStart = process.hrtime.bigint();
  for (const key of mapKeys) map.delete(key);
  const mapRate = EXPIRED_COUNT / (milliseconds(mapStart) / 1000);
  map.clear();

  /** Drains what is expired at `at`, as the schedule would: runs of 1,000 deletions. */
  const drain = async (name: string, at: number) => {
    clock.set(at);
    const before = delivered;
    gc();
    const start = process.hrtime.bigint();
    const drained = await ttl.drain();
    const seconds = milliseconds(start) / 1000;
    if (delivered - before !== drained.deleted) throw new Error('bench: events and deletions differ');
    const rate = drained.deleted / seconds;
    rows.push({
      name,
      value: `${formatRate(rate)} (${drained.deleted.toLocaleString('en-US')} in ${seconds.toFixed(2)} s)`,
      baseline: `Map.delete ${formatRate(mapRate)}`,
      ratio: rate / mapRate,
      target: '≥ 100,000/s',
    });
    return drained.deleted;
  };
  const deleted = await drain('expirer, 100,000 expired of 1,000,000 (events delivered)', T0 + 2_000_000);
  if (deleted !== EXPIRED_COUNT) throw new Error(`bench: deleted ${deleted}`);

  // Enabling TTL on a full table: the index is built from the stored items (900,000 left). The
  // first walk of a table places its partitions in scan order (an ItemStore cost any Scan pays
  // once): pay it before measuring.
  const table = engine.region().tables.get(TABLE)!;
  table.items.scan().next();
  engine.execute('UpdateTimeToLive', {
    TableName: TABLE,
    TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: false },
  });
  const heapBefore = heapUsed();
  const buildStart = process.hrtime.bigint();
  enable(engine, TABLE);
  const buildMs = milliseconds(buildStart);
  const indexed = table.expiryIndex!.size;
  const indexBytes = (heapUsed() - heapBefore) / indexed;
  rows.push(
    {
      name: `expiry index build on enable (${indexed.toLocaleString('en-US')} items)`,
      value: `${buildMs.toFixed(0)} ms`,
    },
    { name: 'expiry index memory per TTL item', value: `${indexBytes.toFixed(0)} B heap`, target: 'small' },
  );
  // About 100,000 more expire 400 s into the second band of TTLs. Since the walk above, the item
  // store also keeps its scan order on every delete (its own B+tree): that, not the expiry index,
  // is what makes this drain slower than the first.
  await drain('expirer, ~100,000 expired, after a full-table walk', T0 + (1_000_000 + 400) * 1000);
  ttl.stop();

  printTable('TTL expiry (1,000,000 items with a TTL)', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
