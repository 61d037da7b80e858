/**
 * Archival (issue #9 figures): records/s from TTL-style REMOVE records (~200-byte OldImages) to
 * archive objects on disk through the archiver's middy handler and the file sink (gzipped export
 * JSON lines, atomic temp + fsync + rename, export manifests), in batches of 1,000 as the
 * recommended mapping settings deliver them: target ≥ 50,000 records/s. Next to it, in the same
 * run, a baseline doing only the unavoidable work on the same batches: `JSON.stringify` each item
 * into an export line, gzip (same level, same thread pool), one plain `writeFile` per batch. Also
 * the bytes each archived item costs on disk, the Parquet option, and the whole path from TTL
 * expiry (expirer → stream → mapping with the TTL filter → archiver) on a virtual clock, next to
 * the same path ending in a function that does nothing.
 *
 * Run: npm run bench (all benches) or npm run bench -- archive (BENCH_TSX=1: through tsx)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { createHandler } from '../functions/archiver/handler.js';
import type { ArchivedObject, Image } from '../functions/shared/ports.js';
import { fileSink } from '../infra/archive/archiveSink.js';
import { formatRate, printTable, type Row } from './support.js';

const RECORDS = 200_000;
const BATCH = 1_000;
const AT = Date.UTC(2026, 0, 2) / 1000;
const STREAM_ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Sessions/stream/2026-01-01T00:00:00.000';
const gzipAsync = promisify(gzip);

/** ~200 bytes of DynamoDB JSON, with a random token so gzip sees realistic entropy. */
function makeItem(i: number): Image {
  return {
    pk: { S: `session#${String(i).padStart(8, '0')}` },
    user: { S: `user${i % 50_000}@example.com` },
    token: { S: randomBytes(12).toString('hex') },
    device: { S: i % 3 === 0 ? 'ios' : 'android' },
    visits: { N: String(i % 997) },
    premium: { BOOL: i % 7 === 0 },
    expiresAt: { N: String(AT - (i % 3_600)) },
  };
}

function ttlRecord(item: Image, ordinal: number): DynamoDBRecord {
  return {
    eventID: ordinal.toString(16).padStart(32, '0'),
    eventName: 'REMOVE',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      ApproximateCreationDateTime: AT,
      Keys: { pk: item.pk! } as never,
      OldImage: item as never,
      SequenceNumber: `1${String(ordinal).padStart(20, '0')}`,
      SizeBytes: 200,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
    eventSourceARN: STREAM_ARN,
  };
}

const context = { functionName: 'archiver', awsRequestId: 'bench' } as Context as never;

/** Archives every batch through the real handler; answers records/s and bytes written. */
async function archiveAll(events: DynamoDBStreamEvent[], format: 'json' | 'parquet') {
  const directory = mkdtempSync(join(tmpdir(), 'eddy-bench-archive-'));
  try {
    let bytes = 0;
    const handler = createHandler(
      { sink: fileSink({ directory, format }) },
      {
        onArchived: (objects: readonly ArchivedObject[]) => {
          for (const object of objects) bytes += object.bytes;
        },
        onError: (error) => {
          throw error;
        },
      },
    );
    const start = process.hrtime.bigint();
    for (const event of events) await handler(event, context);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { rate: RECORDS / seconds, bytes };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The baseline: stringify + gzip + one plain write per batch, nothing else. */
async function baselineAll(events: DynamoDBStreamEvent[]) {
  const directory = mkdtempSync(join(tmpdir(), 'eddy-bench-baseline-'));
  try {
    await mkdir(join(directory, 'out'));
    let bytes = 0;
    const start = process.hrtime.bigint();
    for (let b = 0; b < events.length; b++) {
      let text = '';
      for (const record of events[b]!.Records)
        text += `${JSON.stringify({ Item: record.dynamodb!.OldImage })}\n`;
      const body = await gzipAsync(text, { level: 6 });
      bytes += body.length;
      await writeFile(join(directory, 'out', `${b}.json.gz`), body);
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { rate: RECORDS / seconds, bytes };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * TTL expiry to archive: expirer → stream → mapping (TTL filter) → archiver, on a virtual clock.
 * With `archive` false the mapping invokes a function that does nothing: the cost of the path
 * before the archiver (the baseline of that row).
 */
async function endToEnd(count: number, archive: boolean): Promise<number> {
  const [{ VirtualClock }, { Engine }, { ChangeLog }, { MappingManager }, { LocalFunctions }, ttlModule] =
    await Promise.all([
      import('../core/clock.js'),
      import('../core/engine.js'),
      import('../streams/changeLog.js'),
      import('../streams/mapping/manager.js'),
      import('../infra/functions/localFunctions.js'),
      import('../infra/schedules/ttlExpirer.js'),
    ]);
  const { ARCHIVER_MAPPING_SETTINGS } = await import('../functions/archiver/handler.js');
  const directory = mkdtempSync(join(tmpdir(), 'eddy-bench-e2e-'));
  const clock = new VirtualClock(AT * 1000 - 3_600_000);
  const engine = new Engine({ clock });
  const changeLog = ChangeLog.attach(engine);
  engine.execute('CreateTable', {
    TableName: 'Sessions',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  });
  engine.execute('UpdateTimeToLive', {
    TableName: 'Sessions',
    TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
  });
  for (let i = 0; i < count; i++) engine.executeRaw('PutItem', { TableName: 'Sessions', Item: makeItem(i) });
  const streamArn = (
    engine.execute('DescribeTable', { TableName: 'Sessions' }).Table as { LatestStreamArn: string }
  ).LatestStreamArn;
  const functions = new LocalFunctions({ clock });
  const manager = new MappingManager({ changeLog, functions, settler: engine });
  const noop = async () => ({ batchItemFailures: [] });
  const handler = archive ? createHandler({ sink: fileSink({ directory }) }) : noop;
  functions.define({ name: 'archiver', handler, timeout: 60 });
  manager.create({ FunctionName: 'archiver', EventSourceArn: streamArn, ...ARCHIVER_MAPPING_SETTINGS });
  const ttl = ttlModule.startTtlExpirer(engine, { start: false, batchSize: 10_000 });
  await clock.advance('2h');
  const start = process.hrtime.bigint();
  await ttl.drain();
  for (let step = 0; step < 10_000; step++) {
    await engine.settled();
    if (manager.inspect().every((mapping) => mapping.backlog === 0 && mapping.inFlight === 0)) break;
    await clock.advance('60s');
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  ttl.stop();
  await functions.close();
  rmSync(directory, { recursive: true, force: true });
  return count / seconds;
}

export async function run(): Promise<Row[]> {
  const events: DynamoDBStreamEvent[] = [];
  let rawBytes = 0;
  for (let b = 0; b < RECORDS / BATCH; b++) {
    const records: DynamoDBRecord[] = [];
    for (let k = 0; k < BATCH; k++) {
      const ordinal = b * BATCH + k + 1;
      const item = makeItem(ordinal);
      rawBytes += JSON.stringify(item).length;
      records.push(ttlRecord(item, ordinal));
    }
    events.push({ Records: records });
  }
  // Warm-up: JIT, zlib thread pool, file system caches.
  await archiveAll(events.slice(0, 20), 'json');
  await baselineAll(events.slice(0, 20));

  const json = await archiveAll(events, 'json');
  const baseline = await baselineAll(events);
  const parquet = await archiveAll(events, 'parquet');
  const rows: Row[] = [
    {
      name: 'archive JSON.gz (handler + file sink)',
      value: formatRate(json.rate),
      baseline: formatRate(baseline.rate),
      ratio: json.rate / baseline.rate,
      target: '≥ 50,000/s',
    },
    {
      name: 'bytes per archived item (json.gz)',
      value: (json.bytes / RECORDS).toFixed(1),
      baseline: (baseline.bytes / RECORDS).toFixed(1),
      ratio: json.bytes / baseline.bytes,
    },
    {
      name: 'archive Parquet (handler + file sink)',
      value: formatRate(parquet.rate),
      baseline: formatRate(baseline.rate),
      ratio: parquet.rate / baseline.rate,
    },
    {
      name: 'bytes per archived item (parquet)',
      value: (parquet.bytes / RECORDS).toFixed(1),
      baseline: (baseline.bytes / RECORDS).toFixed(1),
      ratio: parquet.bytes / baseline.bytes,
    },
    { name: 'raw DynamoDB JSON per item', value: (rawBytes / RECORDS).toFixed(1) },
  ];
  try {
    const withoutArchiver = await endToEnd(100_000, false);
    const e2e = await endToEnd(100_000, true);
    rows.push({
      name: 'TTL expiry → archive, 100,000 items',
      value: formatRate(e2e),
      baseline: formatRate(withoutArchiver),
      ratio: e2e / withoutArchiver,
      target: '≥ 50,000/s',
    });
  } catch (error) {
    rows.push({ name: 'TTL expiry → archive', value: `unavailable: ${(error as Error).message}` });
  }
  printTable(`Archival: ${RECORDS.toLocaleString('en-US')} TTL deletes in batches of ${BATCH}`, rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
