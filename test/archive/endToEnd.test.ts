import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { firstValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import { ARCHIVER_MAPPING_SETTINGS, createHandler } from '../../functions/archiver/handler.js';
import type { Image } from '../../functions/shared/ports.js';
import { fileSink } from '../../infra/archive/archiveSink.js';
import { archiverBinding, archiveSinkOf } from '../../infra/archive/binding.js';
import { FileStore } from '../../infra/archive/fileStore.js';
import { listArchive } from '../../infra/archive/reader.js';
import { restoreItems } from '../../infra/archive/restore.js';
import { LocalDestinations } from '../../infra/destinations/localDestinations.js';
import { LocalFunctions } from '../../infra/functions/localFunctions.js';
import { EddyServer } from '../../infra/host/server.js';
import { startTtlExpirer } from '../../infra/schedules/ttlExpirer.js';
import { ChangeLog } from '../../streams/changeLog.js';
import { changes$ } from '../../streams/changes.js';
import { MappingManager } from '../../streams/mapping/manager.js';
import { lambdaContext } from '../helpers/events.js';
import { archivedItems, removeTempDirs, tempDir } from './helpers.js';
import { makeReadOnly } from './readOnly.js';

/**
 * The building block end to end, on a virtual clock: items with a TTL are written, time passes,
 * the ttl-expirer deletes them, the table's stream carries the deletes, a mapping with the TTL
 * filter hands them to the archiver, which writes them to a directory. Then restore.
 */

const START = Date.UTC(2026, 0, 1, 12, 0, 0);
const START_S = START / 1000;
const TABLE = 'Sessions';
const DLQ = 'arn:aws:sqs:us-east-1:000000000000:archiver-dlq';

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  removeTempDirs();
});

function stack(directory: string, settings: { MaximumRetryAttempts?: number } = {}) {
  const clock = new VirtualClock(START);
  const engine = new Engine({ clock });
  const changeLog = ChangeLog.attach(engine);
  engine.execute('CreateTable', {
    TableName: TABLE,
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  });
  engine.execute('UpdateTimeToLive', {
    TableName: TABLE,
    TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
  });
  const streamArn = (
    engine.execute('DescribeTable', { TableName: TABLE }).Table as { LatestStreamArn: string }
  ).LatestStreamArn;
  const functions = new LocalFunctions({ clock });
  const destinations = new LocalDestinations();
  const errors: unknown[] = [];
  const manager = new MappingManager({
    changeLog,
    functions,
    destinations,
    settler: engine,
    retryBackoff: { initialMs: 1_000, maxMs: 10_000 },
    onError: (error) => errors.push(error),
  });
  const sinkErrors: unknown[] = [];
  const { definition, mapping } = archiverBinding({
    eventSourceArn: streamArn,
    sink: archiveSinkOf({ type: 'files', directory }),
    onFailureDestination: DLQ,
    settings,
    handlerOptions: { onError: (error) => sinkErrors.push(error) },
  });
  expect(mapping).toMatchObject({ ...ARCHIVER_MAPPING_SETTINGS, ...settings });
  functions.define(definition);
  const { UUID } = manager.create(mapping);
  const ttl = startTtlExpirer(engine, { start: false });
  cleanups.push(
    () => ttl.stop(),
    () => functions.close(),
  );
  return {
    clock,
    engine,
    changeLog,
    functions,
    destinations,
    manager,
    errors,
    sinkErrors,
    ttl,
    uuid: UUID,
    put: (item: Image) => engine.execute('PutItem', { TableName: TABLE, Item: item }),
    scan: () => engine.execute('Scan', { TableName: TABLE }).Items as Image[],
    /** Advances the clock until the mapping has nothing left to do; `each` runs per step. */
    async drain(each: () => void = () => {}) {
      for (let step = 0; step < 2_000; step++) {
        await engine.settled();
        each();
        const idle = manager.inspect().every((mapping) => mapping.backlog === 0 && mapping.inFlight === 0);
        if (idle) return;
        await clock.advance('5s');
      }
      throw new Error('the mapping did not drain');
    },
  };
}

const session = (i: number, expiresAt?: number): Image => ({
  pk: { S: `session#${String(i).padStart(4, '0')}` },
  user: { S: `user-${i % 7}` },
  hits: { N: String(i * 3) },
  ...(expiresAt === undefined ? {} : { expiresAt: { N: String(expiresAt) } }),
});
const byPk = (a: Image, b: Image) => (a.pk!.S! < b.pk!.S! ? -1 : 1);

/** 40 sessions expiring in an hour (5 of them deleted by their user first), 10 later, 5 never. */
function seed(put: (item: Image) => unknown, deleteItem: (pk: string) => unknown) {
  for (let i = 0; i < 40; i++) put(session(i, START_S + 3_600));
  for (let i = 40; i < 50; i++) put(session(i, START_S + 30 * 86_400));
  for (let i = 50; i < 55; i++) put(session(i));
  put({ ...session(3, START_S + 3_600), hits: { N: '999' } }); // a MODIFY
  for (const i of [0, 1, 2, 10, 20]) deleteItem(session(i).pk!.S!);
}

describe('archival end to end (TTL → stream → mapping with the TTL filter → archiver → files)', () => {
  it('archives exactly the expired items, never a user delete, and restore brings them back', async () => {
    const directory = tempDir();
    const eddy = stack(directory);
    seed(eddy.put, (pk) => eddy.engine.execute('DeleteItem', { TableName: TABLE, Key: { pk: { S: pk } } }));
    const expected = eddy.scan().filter((item) => item.expiresAt?.N === String(START_S + 3_600));
    expect(expected).toHaveLength(35);
    await eddy.drain();
    expect(eddy.manager.inspect(eddy.uuid).recordsProcessed).toBe(0); // nothing has expired yet

    await eddy.clock.advance('2h');
    const run = await eddy.ttl.drain();
    expect(run.deleted).toBe(35);
    await eddy.drain();

    const store = new FileStore(directory);
    const archived = await archivedItems(store);
    expect(archived).toHaveLength(35);
    expect([...archived].sort(byPk)).toEqual([...expected].sort(byPk));
    // Only TTL deletes reached the function: the filter stopped inserts, modifies, user deletes.
    const delivered = eddy.functions
      .invocations('archiver')
      .flatMap((entry) => (entry.event as DynamoDBStreamEvent).Records);
    expect(delivered).toHaveLength(35);
    expect(delivered.every((record) => record.userIdentity?.principalId === 'dynamodb.amazonaws.com')).toBe(
      true,
    );
    // One object per shard's batch (35 < 1,000 records within 60 s); the stream has 4 shards.
    const objects = (await listArchive(store)).objects;
    expect(objects.length).toBe(eddy.functions.invocations('archiver').length);
    expect(objects.length).toBeLessThanOrEqual(4);
    expect(eddy.sinkErrors).toEqual([]);

    // Restore over HTTP, as `eddy archive restore` does, dropping the TTL so they stay.
    const server = new EddyServer({ engine: eddy.engine, port: 0 });
    const { url } = await server.listen();
    const client = new DynamoDBClient({
      endpoint: url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'eddy', secretAccessKey: 'eddy' },
    });
    cleanups.push(
      () => server.close(),
      () => client.destroy(),
    );
    const result = await restoreItems(client, TABLE, archived, { dropAttributes: ['expiresAt'] });
    expect(result.written).toBe(35);
    const { expiresAt: _, ...withoutTtl } = expected[0]!;
    const restored = eddy
      .scan()
      .filter((item) => item.expiresAt === undefined && item.pk!.S! < 'session#0040');
    expect(restored).toHaveLength(35);
    expect(restored.find((item) => item.pk!.S === withoutTtl.pk!.S)).toEqual(withoutTtl);
    await eddy.clock.advance('1h');
    expect((await eddy.ttl.drain()).deleted).toBe(0);
  });

  it('a sink that refuses writes for a while: the mapping retries, then everything is archived once', async () => {
    const directory = tempDir();
    const eddy = stack(directory);
    for (let i = 0; i < 30; i++) eddy.put(session(i, START_S + 60));
    const expected = eddy.scan();
    await eddy.drain();
    let undo: (() => void) | undefined = makeReadOnly(directory);
    cleanups.push(() => undo?.());

    await eddy.clock.advance('2m');
    await eddy.ttl.drain();
    await eddy.drain(() => {
      // Writable again after two failed invocations (the mapping keeps retrying meanwhile).
      if (undo !== undefined && eddy.functions.invocations('archiver').length >= 2) {
        undo();
        undo = undefined;
      }
    });

    expect(eddy.sinkErrors.length).toBeGreaterThanOrEqual(2);
    expect(eddy.destinations.queue(DLQ).records()).toEqual([]);
    const store = new FileStore(directory);
    expect((await listArchive(store)).superseded).toEqual([]);
    expect([...(await archivedItems(store))].sort(byPk)).toEqual(expected.sort(byPk));
  });

  it('a batch that never succeeds lands in the on-failure destination, its records identifiable in the stream', async () => {
    const directory = tempDir();
    const eddy = stack(directory, { MaximumRetryAttempts: 2 });
    for (let i = 0; i < 12; i++) eddy.put(session(i, START_S + 60));
    const expected = eddy.scan();
    await eddy.drain();
    const undo = makeReadOnly(directory);
    let undone = false;
    cleanups.push(() => undone || undo());

    await eddy.clock.advance('2m');
    await eddy.ttl.drain();
    await eddy.drain();

    // Each shard's batch: tried 1 + MaximumRetryAttempts times, then discarded to the DLQ.
    const failures = eddy.destinations.queue(DLQ).records();
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(eddy.functions.invocations('archiver')).toHaveLength(3 * failures.length);
    for (const failure of failures) {
      expect(failure.requestContext.condition).toBe('RetryAttemptsExhausted');
      expect(failure.responseContext?.functionError).toBeNull(); // a batch response, not a throw
    }
    expect(failures.reduce((sum, failure) => sum + failure.DDBStreamBatchInfo.batchSize, 0)).toBe(12);

    // Each record names its shard and stream range: re-read them while the stream holds them (24 h) ...
    const stream = await firstValueFrom(
      changes$(eddy.changeLog, TABLE, { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
    );
    const inRange = (record: DynamoDBRecord) =>
      failures.some(({ DDBStreamBatchInfo: info }) => {
        const at = BigInt(record.dynamodb!.SequenceNumber!);
        return at >= BigInt(info.startSequenceNumber) && at <= BigInt(info.endSequenceNumber);
      });
    const records = stream.filter(inRange);
    expect(records).toHaveLength(12);
    expect(records.every((record) => record.userIdentity?.type === 'Service')).toBe(true);
    // ... and, the disk fixed, re-drive it: the archive is then complete, each item once.
    undo();
    undone = true;
    const redrive = createHandler({ sink: fileSink({ directory }) });
    expect(await redrive({ Records: records }, lambdaContext('archiver') as never)).toEqual({
      batchItemFailures: [],
    });
    expect([...(await archivedItems(new FileStore(directory)))].sort(byPk)).toEqual(expected.sort(byPk));
  });
});
