import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamHandler } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ARCHIVER_MAPPING_SETTINGS,
  createHandler,
  handler,
  isTtlRemove,
  lambdaHandler,
  recordHandler,
  TTL_DELETE_FILTER_CRITERIA,
} from '../../functions/archiver/handler.js';
import { providePorts } from '../../functions/shared/middlewares/injectPorts.js';
import type { ArchivedObject } from '../../functions/shared/ports.js';
import { fileSink } from '../../infra/archive/archiveSink.js';
import { FileStore } from '../../infra/archive/fileStore.js';
import { listArchive } from '../../infra/archive/reader.js';
import { compileFilters } from '../../streams/filter/index.js';
import {
  archivedItems,
  removeTempDirs,
  STREAM_SHARD,
  seq,
  sessionItem,
  tempDir,
  ttlBatch,
  ttlRemove,
  userRemove,
} from '../archive/helpers.js';
import { lambdaContext } from '../helpers/events.js';

// Compile-time: the Lambda handler is a DynamoDBStreamHandler.
const typed: DynamoDBStreamHandler = lambdaHandler;
void typed;

afterEach(removeTempDirs);

const context = () => lambdaContext('archiver') as never;

function archiver(directory: string, onError: (error: unknown) => void = () => {}) {
  const archived: ArchivedObject[][] = [];
  const skipped: number[] = [];
  const invoke = createHandler(
    { sink: fileSink({ directory }) },
    {
      onArchived: (objects, info) => {
        archived.push([...objects]);
        skipped.push(info.skipped);
      },
      onError,
    },
  );
  return {
    archived,
    skipped,
    invoke: (records: DynamoDBRecord[]) =>
      invoke({ Records: records }, context()) as Promise<DynamoDBBatchResponse>,
  };
}

describe('archiver: which records', () => {
  it('archives the OldImages of TTL deletes only: user deletes, inserts and modifies are skipped', async () => {
    const directory = tempDir();
    const { invoke, skipped } = archiver(directory);
    const insert: DynamoDBRecord = { ...userRemove(sessionItem(9), { seq: 2 }), eventName: 'INSERT' };
    const modify: DynamoDBRecord = { ...userRemove(sessionItem(8), { seq: 4 }), eventName: 'MODIFY' };
    // A REMOVE with the service identity but another principal is not TTL either.
    const other = {
      ...ttlRemove(sessionItem(7), { seq: 6 }),
      userIdentity: { type: 'Service', principalId: 'x' },
    };

    const response = await invoke([
      ttlRemove(sessionItem(1), { seq: 1 }),
      insert,
      ttlRemove(sessionItem(3), { seq: 3 }),
      modify,
      userRemove(sessionItem(5), { seq: 5 }),
      other,
      ttlRemove(sessionItem(10), { seq: 10 }),
    ]);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(skipped).toEqual([4]);
    expect(await archivedItems(new FileStore(directory))).toEqual([
      sessionItem(1),
      sessionItem(3),
      sessionItem(10),
    ]);
  });

  it('recordHandler answers the item to archive, or undefined for a record that is not a TTL delete', () => {
    expect(recordHandler(ttlRemove(sessionItem(1)))).toEqual(sessionItem(1));
    expect(recordHandler(userRemove(sessionItem(1)))).toBeUndefined();
    expect(isTtlRemove(ttlRemove(sessionItem(1)))).toBe(true);
  });

  it('writes nothing and succeeds when no record is a TTL delete', async () => {
    const directory = tempDir();
    const { invoke, archived } = archiver(directory);
    expect(await invoke([userRemove(sessionItem(1))])).toEqual({ batchItemFailures: [] });
    expect(archived).toEqual([[]]);
    expect((await listArchive(new FileStore(directory))).objects).toEqual([]);
  });

  it('the exported FilterCriteria passes TTL deletes and stops user deletes (docs/streams-and-lambda.md §3.14)', () => {
    const matches = compileFilters(TTL_DELETE_FILTER_CRITERIA.Filters.map((filter) => filter.Pattern))!;
    expect(matches(ttlRemove(sessionItem(1)) as never)).toBe(true);
    expect(matches(userRemove(sessionItem(1)) as never)).toBe(false);
    expect(ARCHIVER_MAPPING_SETTINGS).toMatchObject({
      BatchSize: 1000,
      MaximumBatchingWindowInSeconds: 60,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});

describe('archiver: object names', () => {
  it('names the object from the batch: table, day of the first record, shard, first and last sequence number', async () => {
    const directory = tempDir();
    const { invoke, archived } = archiver(directory);
    await invoke(ttlBatch(7, 3).Records);
    expect(archived[0]).toEqual([
      {
        key: `Sessions/year=2026/month=01/day=02/${STREAM_SHARD}-${seq(7)}-${seq(9)}.json.gz`,
        itemCount: 3,
        bytes: expect.any(Number),
      },
    ]);
  });

  it("uses the event's shardId when it names one (tumbling-window events do)", async () => {
    const directory = tempDir();
    const sink = fileSink({ directory });
    const objects: ArchivedObject[] = [];
    const invoke = createHandler({ sink }, { onArchived: (written) => objects.push(...written) });
    const shardId = 'shardId-00000001767225600000-0a1b2c3d';
    await invoke({ ...ttlBatch(1, 2), shardId } as never, context());
    expect(objects[0]!.key).toBe(`Sessions/year=2026/month=01/day=02/${shardId}-${seq(1)}-${seq(2)}.json.gz`);
  });

  it('a retried batch overwrites its object: one object with the same items', async () => {
    const directory = tempDir();
    const { invoke } = archiver(directory);
    const batch = ttlBatch(1, 5).Records;
    await invoke(batch);
    await invoke(batch);
    const store = new FileStore(directory);
    expect((await listArchive(store)).objects).toHaveLength(1);
    expect(await archivedItems(store)).toEqual([1, 2, 3, 4, 5].map(sessionItem));
  });

  it('a retry that found more records replaces the earlier attempt: no item twice', async () => {
    const directory = tempDir();
    const { invoke } = archiver(directory);
    await invoke(ttlBatch(1, 3).Records);
    await invoke(ttlBatch(1, 5).Records);
    const store = new FileStore(directory);
    const listing = await listArchive(store);
    expect(listing.objects.map((object) => object.lastSequenceNumber)).toEqual([seq(5)]);
    expect(listing.superseded).toEqual([]);
    expect(await archivedItems(store)).toEqual([1, 2, 3, 4, 5].map(sessionItem));
  });

  it('puts a batch under the day of its first record, in UTC', async () => {
    const directory = tempDir();
    const { invoke, archived } = archiver(directory);
    const lastSecondOfDay = Date.UTC(2026, 2, 31, 23, 59, 59) / 1000;
    await invoke([
      ttlRemove(sessionItem(1), { seq: 1, at: lastSecondOfDay }),
      ttlRemove(sessionItem(2), { seq: 2, at: lastSecondOfDay + 2 }),
    ]);
    expect(archived[0]![0]!.key).toMatch(/^Sessions\/year=2026\/month=03\/day=31\//);
  });
});

describe('archiver: failures', () => {
  it('reports every record of the batch failed when the sink fails, and says why', async () => {
    const directory = tempDir();
    // The archive "directory" is a file: every write fails (ENOTDIR), a real I/O error.
    const blocked = join(directory, 'blocked');
    writeFileSync(blocked, 'not a directory');
    const errors: unknown[] = [];
    const { invoke } = archiver(blocked, (error) => errors.push(error));
    const records = [...ttlBatch(1, 2).Records, userRemove(sessionItem(3), { seq: 3 })];

    const response = await invoke(records);

    expect(response.batchItemFailures).toEqual(
      [seq(1), seq(2), seq(3)].map((id) => ({ itemIdentifier: id })),
    );
    expect(String(errors[0])).toMatch(/ObjectStoreError: could not write Sessions\/year=2026/);
  });

  it('reports the batch failed when a TTL delete has no OldImage (a KEYS_ONLY stream)', async () => {
    const directory = tempDir();
    const errors: unknown[] = [];
    const { invoke } = archiver(directory, (error) => errors.push(error));
    const keysOnly = ttlRemove(sessionItem(2), { seq: 2 });
    delete keysOnly.dynamodb!.OldImage;
    keysOnly.dynamodb!.StreamViewType = 'KEYS_ONLY';

    const response = await invoke([ttlRemove(sessionItem(1), { seq: 1 }), keysOnly]);

    expect(response.batchItemFailures).toHaveLength(2);
    expect(String(errors[0])).toContain('must be OLD_IMAGE or NEW_AND_OLD_IMAGES');
    expect((await listArchive(new FileStore(directory))).objects).toEqual([]);
  });

  it('fails the invocation without a sink port, and refuses unknown options', async () => {
    await expect(createHandler({})(ttlBatch(1, 1), context())).rejects.toThrow('no sink port');
    expect(() => createHandler({}, { onArchive: () => {} } as never)).toThrow('unknown option "onArchive"');
  });
});

describe('archiver: deployed handler', () => {
  it('takes its sink from providePorts', async () => {
    const directory = tempDir();
    const restore = providePorts({ sink: fileSink({ directory }) });
    try {
      const response = await handler(ttlBatch(1, 2), context());
      expect(response).toEqual({ batchItemFailures: [] });
    } finally {
      restore();
    }
    expect(await archivedItems(new FileStore(directory))).toEqual([sessionItem(1), sessionItem(2)]);
  });
});
