import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AttributeValue,
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  ScanCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type EddyProcess, eddyServe, listening, stopLeftovers } from '../helpers/eddyProcess.js';
import { tempDir } from './helpers.js';

/**
 * The crash test (issue #10): `eddy serve --durability always` in a child process, written to
 * by concurrent SDK clients (puts, updates, deletes, transactions), SIGKILLed at random moments
 * (after a random number of acknowledged writes, with more in flight) 22 times, restarted each
 * time, and checked: every acknowledged write is there, an
 * unacknowledged one is all there or not at all (transactions included), replaying the stream
 * from TRIM_HORIZON gives the table, and stream records read before a crash (while writes were
 * going on) come back with the same sequence numbers, eventIDs and contents. Tiny snapshot
 * thresholds make snapshots run (and get killed) all along.
 *
 * The table comes from a config whose `audit` function reads its stream through a mapping; the
 * function appends each record's sequence number to a file. At the end every stream record must
 * be in that file (at least once: none skipped across the kills), and nothing else: the mapping's
 * checkpoints survived the crashes in step with the stream.
 */
const KILLS = 22;
const WORKERS = 6;
const KEYS_PER_WORKER = 8;
const ACKS_PER_KILL = { min: 40, max: 200 };
const TABLE = 'Crash';

type Item = Record<string, AttributeValue>;
type Model = Map<string, Item | undefined>;

const dir = tempDir('eddy-crash-');
const project = tempDir('eddy-crash-project-');
afterAll(() => {
  dir.remove();
  project.remove();
});
afterEach(stopLeftovers);

const DELIVERED = join(project.path, 'delivered.txt');
const CONFIG = join(project.path, 'eddy.config.mjs');
writeFileSync(
  CONFIG,
  `export default ${JSON.stringify({
    tables: [
      {
        TableName: TABLE,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
      },
    ],
    functions: {
      audit: {
        handler: './audit.mjs',
        events: [{ stream: { table: TABLE, StartingPosition: 'TRIM_HORIZON', BatchSize: 50 } }],
      },
    },
  })};\n`,
);
writeFileSync(
  join(project.path, 'audit.mjs'),
  `import { appendFileSync } from 'node:fs';
export const handler = async (event) => {
  appendFileSync(${JSON.stringify(DELIVERED)}, event.Records.map((r) => r.dynamodb.SequenceNumber + '\\n').join(''));
};
`,
);

/** The sequence numbers the audit function has handled so far (with repeats). */
const delivered = () =>
  existsSync(DELIVERED) ? readFileSync(DELIVERED, 'utf8').split('\n').filter(Boolean) : [];

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const clients = (endpoint: string) => ({
  db: new DynamoDBClient({ endpoint, region: 'us-east-1', credentials, maxAttempts: 1 }),
  streams: new DynamoDBStreamsClient({ endpoint, region: 'us-east-1', credentials, maxAttempts: 1 }),
});
type Clients = ReturnType<typeof clients>;

function start(): EddyProcess {
  return eddyServe(
    [
      '--port',
      '0',
      '--config',
      CONFIG,
      '--data-dir',
      dir.path,
      '--durability',
      'always',
      '--snapshot-log-size',
      '48KiB',
    ],
    dir.path,
  );
}

/** Canonical text of an item (or absence), for comparisons. */
function text(item: Item | undefined): string {
  if (item === undefined) return 'absent';
  return JSON.stringify(
    Object.keys(item)
      .sort()
      .map((name) => [name, item[name]]),
  );
}

/** One operation a worker sends, and what each key it touches is afterwards if it applies. */
interface Operation {
  readonly send: (db: DynamoDBClient) => Promise<unknown>;
  readonly after: Map<string, Item | undefined>;
}

let counter = 0;
function plan(model: Model, worker: number): Operation {
  const keys = Array.from({ length: KEYS_PER_WORKER }, (_, i) => `w${worker}-k${i}`);
  const pick = () => keys[Math.floor(Math.random() * keys.length)]!;
  const v = String(++counter);
  const after = new Map<string, Item | undefined>();
  const choice = Math.random();
  if (choice < 0.35) {
    const pk = pick();
    const item: Item = { pk: { S: pk }, v: { N: v }, data: { S: `put ${v}`.repeat(1 + (counter % 5)) } };
    after.set(pk, item);
    return { send: (db) => db.send(new PutItemCommand({ TableName: TABLE, Item: item })), after };
  }
  if (choice < 0.65) {
    const pk = pick();
    const current = model.get(pk);
    const hits = Number(current?.hits?.N ?? '0') + 1;
    after.set(pk, { ...(current ?? { pk: { S: pk } }), v: { N: v }, hits: { N: String(hits) } });
    return {
      send: (db) =>
        db.send(
          new UpdateItemCommand({
            TableName: TABLE,
            Key: { pk: { S: pk } },
            UpdateExpression: 'SET v = :v ADD hits :one',
            ExpressionAttributeValues: { ':v': { N: v }, ':one': { N: '1' } },
          }),
        ),
      after,
    };
  }
  if (choice < 0.8) {
    const pk = pick();
    after.set(pk, undefined);
    return {
      send: (db) => db.send(new DeleteItemCommand({ TableName: TABLE, Key: { pk: { S: pk } } })),
      after,
    };
  }
  const [a, b, c] = [...keys].sort(() => Math.random() - 0.5) as [string, string, string];
  const tx = `tx${v}`;
  after.set(a, { pk: { S: a }, v: { N: v }, tx: { S: tx } });
  after.set(b, { ...(model.get(b) ?? { pk: { S: b } }), v: { N: v }, tx: { S: tx } });
  after.set(c, undefined);
  return {
    send: (db) =>
      db.send(
        new TransactWriteItemsCommand({
          ClientRequestToken: tx,
          TransactItems: [
            { Put: { TableName: TABLE, Item: after.get(a)! } },
            {
              Update: {
                TableName: TABLE,
                Key: { pk: { S: b } },
                UpdateExpression: 'SET v = :v, tx = :tx',
                ExpressionAttributeValues: { ':v': { N: v }, ':tx': { S: tx } },
              },
            },
            { Delete: { TableName: TABLE, Key: { pk: { S: c } } } },
          ],
        }),
      ),
    after,
  };
}

async function scan(db: DynamoDBClient): Promise<Model> {
  const items: Model = new Map();
  let start: Item | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) items.set(item.pk!.S!, item);
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return items;
}

/** Every record of the table's stream, shard by shard from TRIM_HORIZON, in sequence order. */
async function readStream(client: Clients, streamArn: string): Promise<StreamRecord[]> {
  const records: StreamRecord[] = [];
  const description = await client.streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  for (const shard of description.StreamDescription?.Shards ?? []) {
    let iterator = (
      await client.streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId!,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      )
    ).ShardIterator;
    while (iterator !== undefined) {
      const page = await client.streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      records.push(...(page.Records ?? []));
      if ((page.Records ?? []).length === 0) break;
      iterator = page.NextShardIterator;
    }
  }
  return records.sort((x, y) => (x.dynamodb!.SequenceNumber! < y.dynamodb!.SequenceNumber! ? -1 : 1));
}

/**
 * The records added to the table's stream since the last call with the same `after` (shard id →
 * last sequence number read), which it moves on. The reader under load uses it: a pass reads
 * what is new, not the whole stream again (whole passes grew with every kill, and on a busy
 * machine one outlasted the wait before the next kill).
 */
async function readNew(
  client: Clients,
  streamArn: string,
  after: Map<string, string>,
): Promise<StreamRecord[]> {
  const records: StreamRecord[] = [];
  const description = await client.streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  for (const shard of description.StreamDescription?.Shards ?? []) {
    const last = after.get(shard.ShardId!);
    // A closed shard read to its end has nothing new.
    if (last !== undefined && last === shard.SequenceNumberRange?.EndingSequenceNumber) continue;
    let iterator = (
      await client.streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId!,
          ...(last === undefined
            ? { ShardIteratorType: 'TRIM_HORIZON' }
            : { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: last }),
        }),
      )
    ).ShardIterator;
    while (iterator !== undefined) {
      const page = await client.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: PAGE }));
      const got = page.Records ?? [];
      if (got.length > 0) {
        records.push(...got);
        after.set(shard.ShardId!, got.at(-1)!.dynamodb!.SequenceNumber!);
      }
      // A short page reached the shard's end as it was then. Reading on until a page comes back
      // empty would chase the writers: under load a pass lasted until they paused, seconds.
      if (got.length < PAGE) break;
      iterator = page.NextShardIterator;
    }
  }
  return records;
}

/** GetRecords' largest page (docs/streams-and-lambda.md §1.5.5). */
const PAGE = 1000;

const recordText = (record: StreamRecord) =>
  JSON.stringify([record.eventID, record.eventName, record.dynamodb?.Keys, record.dynamodb?.NewImage]);

describe('crash safety (eddy serve --durability always, SIGKILL)', () => {
  it(`loses no acknowledged write and half-applies nothing across ${KILLS} kills`, async () => {
    let model: Model = new Map();
    const seen = new Map<string, string>(); // sequence number → record text, read before crashes
    const readUpTo = new Map<string, string>(); // shard id → the last sequence number in `seen`
    let streamArn = '';
    let run = start();
    let client = clients(await listening(run));
    const described = await client.db.send(new DescribeTableCommand({ TableName: TABLE }));
    streamArn = described.Table!.LatestStreamArn!;
    let acknowledged = 0;
    let unacknowledged = 0;
    let restartsFromSnapshot = 0;

    for (let kill = 0; kill <= KILLS; kill++) {
      if (kill > 0) {
        // Restarted: check everything against what was acknowledged before the kill.
        const table = await scan(client.db);
        const records = await readStream(client, streamArn);
        const served = new Map(records.map((record) => [record.dynamodb!.SequenceNumber!, record]));
        for (const [sequence, before] of seen) {
          const now = served.get(sequence);
          expect(now && recordText(now), `record ${sequence} after kill ${kill}`).toBe(before);
        }
        const replayed: Model = new Map();
        for (const record of records) {
          const pk = record.dynamodb!.Keys!.pk!.S!;
          if (record.eventName === 'REMOVE') replayed.delete(pk);
          else replayed.set(pk, record.dynamodb!.NewImage as Item);
        }
        expect(new Map([...replayed].map(([k, item]) => [k, text(item)]))).toEqual(
          new Map([...table].map(([k, item]) => [k, text(item)])),
        );
        model = table;
      }
      if (kill === KILLS) break;

      // Load: workers on their own keys, one operation in flight each; a stream reader.
      let killed = false;
      const inFlight: Operation[] = [];
      const expected = new Map(model);
      // The kill comes after a random number of acknowledgements (and two reader passes), not
      // after a span of wall time: the same work on a fast or a busy machine.
      const target = ACKS_PER_KILL.min + Math.floor(Math.random() * (ACKS_PER_KILL.max - ACKS_PER_KILL.min));
      let acknowledgedHere = 0;
      let enoughAcks!: () => void;
      const acked = new Promise<void>((resolve) => {
        enoughAcks = resolve;
      });
      const worker = async (index: number) => {
        while (!killed) {
          const operation = plan(expected, index);
          try {
            await operation.send(client.db);
            for (const [key, item] of operation.after) expected.set(key, item);
            acknowledged++;
            if (++acknowledgedHere === target) enoughAcks();
          } catch (error) {
            if (!killed) throw error;
            inFlight.push(operation);
            unacknowledged++;
          }
        }
      };
      let reads = 0;
      let twoReads!: () => void;
      const readTwice = new Promise<void>((resolve) => {
        twoReads = resolve;
      });
      const reader = async () => {
        while (!killed) {
          try {
            for (const record of await readNew(client, streamArn, readUpTo))
              seen.set(record.dynamodb!.SequenceNumber!, recordText(record));
            if (++reads === 2) twoReads();
          } catch (error) {
            if (!killed) throw error;
          }
        }
      };
      const load = Promise.all([...Array.from({ length: WORKERS }, (_, i) => worker(i)), reader()]);
      // `load` settles first only by failing (a worker's error before the kill).
      await Promise.race([acked, load]);
      // On a busy machine one pass over every shard can outlast the window: kill only after the
      // reader finished one under load (at most 10 s more), or nothing read before a crash is
      // ever compared with what a restart serves.
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([readTwice, new Promise((resolve) => (bound = setTimeout(resolve, 10_000)))]);
      clearTimeout(bound);
      killed = true;
      run.child.kill('SIGKILL');
      await Promise.all([load, run.exited]);
      client.db.destroy();
      client.streams.destroy();

      if (readdirSync(join(dir.path, 'snapshots')).some((name) => name.endsWith('.snap')))
        restartsFromSnapshot++;
      run = start();
      client = clients(await listening(run));
      const table = await scan(client.db);
      // Keys of operations that were not acknowledged: their value before, or after, all together.
      const open = new Set(inFlight.flatMap((operation) => [...operation.after.keys()]));
      for (const key of new Set([...expected.keys(), ...table.keys()]))
        if (!open.has(key))
          expect(text(table.get(key)), `key ${key} after kill ${kill + 1}`).toBe(text(expected.get(key)));
      for (const operation of inFlight) {
        const keys = [...operation.after.keys()];
        const applied = keys.every((key) => text(table.get(key)) === text(operation.after.get(key)));
        const absent = keys.every((key) => text(table.get(key)) === text(expected.get(key)));
        expect(applied || absent, `operation on ${keys.join(', ')} half-applied`).toBe(true);
      }
    }
    // The audit mapping catches up from its checkpoints: every record at least once, none else.
    const recorded = new Set(
      (await readStream(client, streamArn)).map((record) => record.dynamodb!.SequenceNumber!),
    );
    for (let waited = 0; waited < 15_000; waited += 50) {
      const handledSoFar = new Set(delivered());
      if ([...recorded].every((sequence) => handledSoFar.has(sequence))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const handled = new Set(delivered());
    expect(
      [...recorded].filter((sequence) => !handled.has(sequence)),
      'records the mapping skipped',
    ).toEqual([]);
    expect(
      [...handled].filter((sequence) => !recorded.has(sequence)),
      'records not in the stream',
    ).toEqual([]);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(acknowledged).toBeGreaterThan(KILLS * 10);
    expect(unacknowledged).toBeGreaterThan(0);
    expect(seen.size).toBeGreaterThan(100);
    expect(restartsFromSnapshot).toBeGreaterThan(KILLS / 2);
    // A bound, not a speed: 23 starts of eddy and 22 load windows, each waiting for the reader;
    // on a busy machine a kill takes seconds (load 18: ~8 s a kill).
  }, 360_000);
});
