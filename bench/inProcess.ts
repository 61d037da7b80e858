/**
 * In-process engine throughput (issue #2/#3 figures): PutItem, GetItem, UpdateItem (counter) on a
 * 100,000-item table of ~200-byte items, Query and Scan, next to a plain-Map baseline measured in
 * the same run. Prints ops/s, the ratio to the baseline, and memory per item against the raw JSON
 * size of the items.
 *
 * Run: npm run bench (all benches) or npm run bench -- inProcess (BENCH_TSX=1: through tsx)
 */
import { Engine } from '../core/engine.js';
import { toWireJson } from '../core/wire.js';
import { createCustomerTable, customerItem } from './fixtures.js';
import { formatRate, measure, printTable, type Row } from './support.js';

const ITEM_COUNT = 100_000;
const TABLE = 'BenchItems';

const makeItem = (i: number) => customerItem(i, { visits: i % 997 });

function gc() {
  (globalThis as { gc?: () => void }).gc?.();
}

export async function run(): Promise<Row[]> {
  const items = Array.from({ length: ITEM_COUNT }, (_, i) => makeItem(i));
  const rawBytes = items.reduce((sum, item) => sum + JSON.stringify(item).length, 0);
  const rows: Row[] = [];

  // Baseline: a plain Map keyed by the partition key string.
  const map = new Map<string, unknown>();
  const mapPut = measure(ITEM_COUNT, (i) => {
    const item = items[i]!;
    map.set(item.pk.S, item);
  });
  const mapGet = measure(ITEM_COUNT * 5, (i) => map.get(items[i % ITEM_COUNT]!.pk.S));

  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const engine = new Engine();
  createCustomerTable(engine, TABLE);
  const putInputs = items.map((Item) => ({ TableName: TABLE, Item }));
  const put = measure(ITEM_COUNT, (i) => engine.executeRaw('PutItem', putInputs[i]));
  gc();
  const heapPerItem = (process.memoryUsage().heapUsed - heapBefore) / ITEM_COUNT;
  const rssPerItem = (process.memoryUsage().rss - rssBefore) / ITEM_COUNT;
  const rawPerItem = rawBytes / ITEM_COUNT;

  const getInputs = items.map((item) => ({ TableName: TABLE, Key: { pk: item.pk } }));
  const getWire = measure(ITEM_COUNT * 5, (i) =>
    toWireJson(engine.executeRaw('GetItem', getInputs[i % ITEM_COUNT])),
  );
  const getObjects = measure(ITEM_COUNT * 2, (i) => engine.execute('GetItem', getInputs[i % ITEM_COUNT]));

  rows.push(
    {
      name: 'PutItem (insert)',
      value: formatRate(put),
      baseline: formatRate(mapPut),
      ratio: put / mapPut,
      target: '≥ 200,000/s',
    },
    {
      name: 'GetItem (wire JSON out)',
      value: formatRate(getWire),
      baseline: formatRate(mapGet),
      ratio: getWire / mapGet,
      target: '≥ 500,000/s',
    },
    {
      name: 'GetItem (decoded objects)',
      value: formatRate(getObjects),
      baseline: formatRate(mapGet),
      ratio: getObjects / mapGet,
    },
  );

  if (engine.supports('UpdateItem')) {
    const updateInputs = items.map((item) => ({
      TableName: TABLE,
      Key: { pk: item.pk },
      UpdateExpression: 'SET #v = #v + :one',
      ExpressionAttributeNames: { '#v': 'visits' },
      ExpressionAttributeValues: { ':one': { N: '1' } },
    }));
    try {
      const update = measure(ITEM_COUNT, (i) => engine.executeRaw('UpdateItem', updateInputs[i]));
      const mapUpdate = measure(ITEM_COUNT, (i) => {
        const item = map.get(items[i]!.pk.S) as { visits: { N: string } };
        item.visits = { N: String(Number(item.visits.N) + 1) };
      });
      rows.push({
        name: 'UpdateItem (counter)',
        value: formatRate(update),
        baseline: formatRate(mapUpdate),
        ratio: update / mapUpdate,
      });
    } catch (error) {
      rows.push({ name: 'UpdateItem (counter)', value: `unavailable: ${(error as Error).message}` });
    }
  }

  // Query: one partition of 10 items of ~200 bytes (issue #3: ≥ 100,000/s).
  engine.execute('CreateTable', {
    TableName: 'BenchEvents',
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'N' },
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    BillingMode: 'PAY_PER_REQUEST',
  });
  const partitions = 1_000;
  for (let p = 0; p < partitions; p++) {
    for (let sk = 0; sk < 10; sk++) {
      const item = makeItem(p * 10 + sk);
      engine.executeRaw('PutItem', {
        TableName: 'BenchEvents',
        Item: { ...item, pk: { S: `device#${p}` }, sk: { N: String(sk) } },
      });
    }
  }
  const queryInputs = Array.from({ length: partitions }, (_, p) => ({
    TableName: 'BenchEvents',
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': { S: `device#${p}` } },
  }));
  const queryRate = measure(100_000, (i) =>
    toWireJson(engine.executeRaw('Query', queryInputs[i % partitions])),
  );
  const mapQuery = measure(100_000, (i) => {
    const out: unknown[] = [];
    for (let sk = 0; sk < 10; sk++) out.push(map.get(items[(i * 10 + sk) % ITEM_COUNT]!.pk.S));
    return out;
  });
  rows.push({
    name: 'Query (10 items, wire JSON out)',
    value: formatRate(queryRate),
    baseline: formatRate(mapQuery),
    ratio: queryRate / mapQuery,
    target: '≥ 100,000/s',
  });

  // Scan: the whole 100,000-item table, page after page (issue #3: ≤ 1 s).
  const scanStart = process.hrtime.bigint();
  let scanned = 0;
  let startKey: unknown;
  do {
    const page = engine.executeRaw('Scan', {
      TableName: TABLE,
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    });
    toWireJson(page);
    scanned += page.Count as number;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  const scanMs = Number(process.hrtime.bigint() - scanStart) / 1e6;
  const mapScanStart = process.hrtime.bigint();
  JSON.stringify([...map.values()]);
  const mapScanMs = Number(process.hrtime.bigint() - mapScanStart) / 1e6;
  rows.push({
    name: `full Scan (${scanned.toLocaleString('en-US')} items, paged)`,
    value: `${scanMs.toFixed(0)} ms`,
    baseline: `${mapScanMs.toFixed(0)} ms`,
    ratio: mapScanMs / scanMs,
    target: '≤ 1,000 ms',
  });

  rows.push({
    name: 'memory per item',
    value: `heap ${heapPerItem.toFixed(0)} B, RSS ${rssPerItem.toFixed(0)} B`,
    baseline: `raw JSON ${rawPerItem.toFixed(0)} B`,
    ratio: heapPerItem / rawPerItem,
    target: '≤ 2.5× raw',
  });
  printTable('In-process engine (100,000 items of ~200 bytes)', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
