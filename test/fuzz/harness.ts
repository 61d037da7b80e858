import { Agent } from 'node:http';
import pino from 'pino';
import { VirtualClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import { canonicalJson } from '../../core/model/canonicalJson.js';
import { EddyServer } from '../../infra/host/server.js';
import { StreamsService } from '../../streams/index.js';
import { jsonHeaders, send } from '../infra/rawHttp.js';
import { editBytes, type FuzzCase, mutate, serialize } from './mutations.js';
import { DYNAMODB, type FixtureRefs, STREAMS, TEMPLATES } from './templates.js';

/**
 * The fuzz target: a real eddy HTTP server on loopback (DynamoDB and Streams APIs) over a small
 * fixture, and the oracles: no 5xx, no crash (the server keeps answering; no internal error
 * reported or logged), and no state change after a refused write (a dump of every table,
 * index, tag, TTL setting and the commit count, before and after).
 */
export interface CaseOutcome {
  readonly target: string;
  readonly status: number;
  /** The start of the body sent and of the answer, to report a failure. */
  readonly sent: string;
  readonly answer: string;
  /** The connection failed: the server crashed or dropped the request. */
  readonly crashed: boolean;
  /** A write was refused (4xx) yet the state changed. */
  readonly stateChanged: boolean;
  /** Errors eddy reported as its own bugs while answering. */
  readonly internalErrors: readonly string[];
}

export interface FuzzTarget {
  readonly url: string;
  run(fuzzCase: FuzzCase): Promise<CaseOutcome>;
  close(): Promise<void>;
}

/** Operations whose success changes tables themselves: the fixture is rebuilt after one. */
const TABLE_WRITES = new Set(
  [
    'CreateTable',
    'DeleteTable',
    'UpdateTable',
    'UpdateTimeToLive',
    'TagResource',
    'UntagResource',
    'RestoreTableFromBackup',
    'RestoreTableToPointInTime',
    'ImportTable',
  ].map((operation) => `${DYNAMODB}.${operation}`),
);
/** Items written by successful cases pile up; the fixture is rebuilt this often. */
const REBUILD_EVERY = 500;

export async function startFuzzTarget(): Promise<FuzzTarget> {
  const internalErrors: string[] = [];
  const report = (error: unknown, where: string) =>
    internalErrors.push(
      `${where}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  // A virtual clock: each rebuild moves it a day on, so the streams of the tables it deleted
  // (kept 24 hours, as in DynamoDB) are dropped instead of piling up over a long run.
  const clock = new VirtualClock();
  const engine = new Engine({ clock, onInternalError: report });
  let commits = 0;
  engine.onCommit(() => {
    commits++;
  });
  const streams = new StreamsService(engine, { onInternalError: report });
  const logger = pino({ level: 'error' }, { write: (line: string) => internalErrors.push(line) });
  const server = new EddyServer({ engine, port: 0, logger });
  server.registerService(streams.protocol);
  const { url } = await server.listen();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let refs = buildFixture(engine, streams);
  let sinceRebuild = 0;

  const dump = () => `${commits}\n${dumpState(engine)}`;

  const run = async (fuzzCase: FuzzCase): Promise<CaseOutcome> => {
    const template = TEMPLATES[fuzzCase.template]!;
    let target = template.target;
    let body: Buffer;
    if (fuzzCase.kind === 'mutated') {
      if (fuzzCase.target >= 0) target = TEMPLATES[fuzzCase.target]!.target;
      body = serialize(mutate(template.body(refs), fuzzCase.mutations));
    } else if (fuzzCase.kind === 'bytes') {
      body = editBytes(serialize(template.body(refs)), fuzzCase.edits);
    } else {
      body = serialize(fuzzCase.body);
    }
    const write = TEMPLATES.some((candidate) => candidate.target === target && candidate.write);
    const before = write ? dump() : '';
    const reported = internalErrors.length;
    let status = 0;
    let answer = '';
    let crashed = false;
    try {
      const response = await send(url, { headers: jsonHeaders(target), body, agent });
      status = response.status;
      answer = response.text.slice(0, 300);
    } catch (error) {
      crashed = true;
      answer = String(error);
    }
    const stateChanged = write && status >= 400 && dump() !== before;
    const outcome: CaseOutcome = {
      target,
      status,
      sent: body.subarray(0, 300).toString(),
      answer,
      crashed,
      stateChanged,
      internalErrors: internalErrors.slice(reported),
    };
    sinceRebuild++;
    if ((status === 200 && TABLE_WRITES.has(target)) || sinceRebuild >= REBUILD_EVERY) {
      await clock.advance('25h');
      refs = buildFixture(engine, streams);
      sinceRebuild = 0;
    }
    return outcome;
  };

  return {
    url,
    run,
    close: async () => {
      agent.destroy();
      await server.close();
    },
  };
}

/** Deletes every table, then creates and fills `Fuzz` (with indexes, stream, TTL, tags) and `Plain`. */
function buildFixture(engine: Engine, streams: StreamsService): FixtureRefs {
  for (const region of [...engine.allRegions()]) {
    const context = { accountId: region.accountId, region: region.name };
    for (const [name, table] of [...region.tables]) {
      // A case may have turned deletion protection on.
      if (table.deletionProtectionEnabled)
        engine.execute('UpdateTable', { TableName: name, DeletionProtectionEnabled: false }, context);
      engine.execute('DeleteTable', { TableName: name }, context);
    }
  }
  const created = engine.execute('CreateTable', {
    TableName: 'Fuzz',
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'N' },
      { AttributeName: 'color', AttributeType: 'S' },
      { AttributeName: 'score', AttributeType: 'N' },
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'ByColor',
        KeySchema: [{ AttributeName: 'color', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
    LocalSecondaryIndexes: [
      {
        IndexName: 'ByScore',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'score', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    Tags: [{ Key: 'env', Value: 'fuzz' }],
  }) as { TableDescription: { TableArn: string; LatestStreamArn: string } };
  engine.execute('CreateTable', {
    TableName: 'Plain',
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  engine.execute('UpdateTimeToLive', {
    TableName: 'Fuzz',
    TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
  });
  for (const [pk, sk, color] of [
    ['a', '1', 'red'],
    ['b', '2', 'green'],
    ['a', '3', 'blue'],
  ] as const)
    engine.execute('PutItem', {
      TableName: 'Fuzz',
      Item: {
        pk: { S: pk },
        sk: { N: sk },
        color: { S: color },
        score: { N: sk },
        doc: { M: { set: { SS: ['x'] } } },
      },
    });
  for (const id of ['p1', 'p2'])
    engine.execute('PutItem', { TableName: 'Plain', Item: { id: { S: id }, n: { N: '1' } } });
  const streamArn = created.TableDescription.LatestStreamArn;
  const described = streams.execute('DescribeStream', { StreamArn: streamArn }) as {
    StreamDescription: { Shards: { ShardId: string }[] };
  };
  // Items land in several shards: the templates name one that holds records.
  for (const { ShardId: shardId } of described.StreamDescription.Shards) {
    const { ShardIterator: shardIterator } = streams.execute('GetShardIterator', {
      StreamArn: streamArn,
      ShardId: shardId,
      ShardIteratorType: 'TRIM_HORIZON',
    }) as { ShardIterator: string };
    const { Records } = streams.execute('GetRecords', { ShardIterator: shardIterator }) as {
      Records: { dynamodb: { SequenceNumber: string } }[];
    };
    const first = Records[0];
    if (first !== undefined)
      return {
        tableArn: created.TableDescription.TableArn,
        streamArn,
        shardId,
        sequenceNumber: first.dynamodb.SequenceNumber,
        shardIterator,
      };
  }
  throw new Error('The fuzz fixture wrote items, yet no shard of its stream holds a record');
}

/** Everything a write could change, as one text: tables, items, indexes, TTL and tags. */
function dumpState(engine: Engine): string {
  const state: unknown[] = [];
  for (const region of engine.allRegions()) {
    const context = { accountId: region.accountId, region: region.name };
    for (const name of [...region.tables.keys()].sort()) {
      const { Table: table } = engine.execute('DescribeTable', { TableName: name }, context) as {
        Table: { TableArn: string; GlobalSecondaryIndexes?: { IndexName: string }[] };
      };
      const items = engine.execute('Scan', { TableName: name }, context);
      const indexes = (table.GlobalSecondaryIndexes ?? []).map((index) =>
        engine.execute('Scan', { TableName: name, IndexName: index.IndexName }, context),
      );
      const ttl = engine.execute('DescribeTimeToLive', { TableName: name }, context);
      const tags = engine.execute('ListTagsOfResource', { ResourceArn: table.TableArn }, context);
      state.push({ region: region.name, table, items, indexes, ttl, tags });
    }
  }
  return canonicalJson(state);
}

/** Every operation of both APIs, to check the templates cover them all. */
export const TARGETS = new Set(TEMPLATES.map((template) => template.target));
export { DYNAMODB, STREAMS };
