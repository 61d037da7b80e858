import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { shardsInReadOrder } from '../../streams/reader.js';
import { NOT_FOUND, TRIMMED, VALIDATION, wireError } from '../helpers/errors.js';
import { readStreamRecords } from '../helpers/streamRecords.js';
import {
  createTable,
  fixture,
  latestStreamArn,
  n,
  put,
  START,
  type StreamsFixture,
  s,
  setStream,
} from './helpers.js';

/**
 * docs/streams-and-lambda.md §1.4: shards, lineage, rollover and retention on a virtual clock;
 * docs/streams-and-lambda.md §1.6 stream lifecycle.
 */

interface ShardOut {
  ShardId: string;
  ParentShardId?: string;
  SequenceNumberRange: { StartingSequenceNumber: string; EndingSequenceNumber?: string };
}

interface Description {
  StreamArn: string;
  StreamLabel: string;
  StreamStatus: string;
  StreamViewType: string;
  CreationRequestDateTime: number;
  TableName: string;
  KeySchema: unknown[];
  Shards: ShardOut[];
  LastEvaluatedShardId?: string;
}

function describeStream(f: StreamsFixture, arn: string, extra: Record<string, unknown> = {}): Description {
  return f.streams.execute('DescribeStream', { StreamArn: arn, ...extra }).StreamDescription as Description;
}

function shardRecords(f: StreamsFixture, arn: string, shardId: string): DynamoDBRecord[] {
  const iterator = f.streams.execute('GetShardIterator', {
    StreamArn: arn,
    ShardId: shardId,
    ShardIteratorType: 'TRIM_HORIZON',
  }).ShardIterator;
  return f.streams.execute('GetRecords', { ShardIterator: iterator }).Records as DynamoDBRecord[];
}

describe('sequence number ranges (DescribeStream)', () => {
  // SequenceNumberRange: "StartingSequenceNumber: the first sequence number for the stream records
  // contained within a shard", "EndingSequenceNumber: the last..."
  // (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_SequenceNumberRange.html).
  it("starts each shard's range at its first record, and gives an empty closed shard a range that holds no record", () => {
    const f = fixture();
    createTable(f.engine, 'Items', 'KEYS_ONLY');
    // Items spread over the shards: a shard's first record is not the stream's first.
    for (let i = 0; i < 3; i++) put(f.engine, 'Items', { pk: s(`item-${i}`) });
    const arn = latestStreamArn(f.engine, 'Items');
    const open = describeStream(f, arn).Shards;
    const holding = open.filter((shard) => shardRecords(f, arn, shard.ShardId).length > 0);
    const empty = open.filter((shard) => shardRecords(f, arn, shard.ShardId).length === 0);
    expect(holding.length).toBeGreaterThan(1);
    expect(empty.length).toBeGreaterThan(0);
    for (const shard of holding) {
      const records = shardRecords(f, arn, shard.ShardId);
      expect(shard.SequenceNumberRange.StartingSequenceNumber).toBe(records[0]!.dynamodb!.SequenceNumber);
    }

    setStream(f.engine, 'Items', false);
    const sequenceNumbers = new Set(
      describeStream(f, arn).Shards.flatMap((shard) =>
        shardRecords(f, arn, shard.ShardId).map((record) => record.dynamodb!.SequenceNumber!),
      ),
    );
    for (const shard of describeStream(f, arn).Shards) {
      const records = shardRecords(f, arn, shard.ShardId);
      const { StartingSequenceNumber: start, EndingSequenceNumber: end } = shard.SequenceNumberRange;
      expect(end).toMatch(/^\d{21,40}$/);
      if (records.length > 0) {
        expect(start).toBe(records[0]!.dynamodb!.SequenceNumber);
        expect(end).toBe(records.at(-1)!.dynamodb!.SequenceNumber);
      } else {
        // Closed (both numbers, as DescribeStream marks a closed shard), naming no record: an empty range.
        expect(sequenceNumbers.has(end!)).toBe(false);
        expect(BigInt(end!)).toBeLessThan(BigInt(start));
      }
    }
  });
});

describe('shards (docs/streams-and-lambda.md §1.4)', () => {
  it('starts a stream with 4 open shards whose ids follow shardId-<20-digit epoch-ms>-<8 hex> (docs/streams-and-lambda.md §1.4.2, §1.4.4)', () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    const description = describeStream(f, arn);
    expect(description.Shards).toHaveLength(4);
    for (const shard of description.Shards) {
      expect(shard.ShardId).toMatch(/^shardId-\d{20}-[0-9a-f]{8}$/);
      expect(shard.ShardId.length).toBeGreaterThanOrEqual(28);
      expect(shard.ShardId.length).toBeLessThanOrEqual(65);
      // The creation epoch-ms matches the stream label (docs/streams-and-lambda.md §1.4.4).
      expect(Number(shard.ShardId.slice(8, 28))).toBe(Date.parse(`${description.StreamLabel}Z`));
      expect(shard.SequenceNumberRange.StartingSequenceNumber).toMatch(/^\d{21,40}$/);
      expect(shard.SequenceNumberRange.EndingSequenceNumber).toBeUndefined();
      expect(shard.ParentShardId).toBeUndefined();
    }
  });

  it('opens as many shards as configured', () => {
    const f = fixture({ changeLog: { shardCount: 1 } });
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    expect(describeStream(f, arn).Shards).toHaveLength(1);
  });

  it('rolls every shard over to one child after 4 hours, even with no writes (docs/streams-and-lambda.md §1.4.1, §1.4.5)', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    const parents = describeStream(f, arn).Shards;
    await f.clock.advance('4h');
    const shards = describeStream(f, arn).Shards;
    expect(shards).toHaveLength(8);
    for (const parent of parents) {
      const closed = shards.find((shard) => shard.ShardId === parent.ShardId)!;
      expect(closed.SequenceNumberRange.EndingSequenceNumber).toMatch(/^\d{21,40}$/);
      const children = shards.filter((shard) => shard.ParentShardId === parent.ShardId);
      expect(children).toHaveLength(1);
      expect(children[0]!.SequenceNumberRange.EndingSequenceNumber).toBeUndefined();
      expect(Number(children[0]!.ShardId.slice(8, 28))).toBe(START + 4 * 3_600_000);
    }
  });

  it('rolls over on the configured period and keeps one item on the child of its shard, in order (docs/streams-and-lambda.md §1.4.3)', async () => {
    const f = fixture({ changeLog: { rolloverPeriod: '1h' } });
    const arn = createTable(f.engine, 'Items', 'NEW_IMAGE').LatestStreamArn as string;
    for (let i = 0; i < 6; i++) {
      put(f.engine, 'Items', { pk: s('one'), v: n(i) });
      await f.clock.advance('30m');
    }
    const shards = describeStream(f, arn).Shards;
    expect(shards).toHaveLength(4 * 4); // generations at 0h, 1h, 2h, 3h
    // Reading every shard parents first gives the item's changes in order, along one lineage.
    const ordered = shardsInReadOrder(f.changeLog.stream(arn)!.shards);
    const holders = ordered.filter((shard) => shardRecords(f, arn, shard.id).length > 0);
    for (let i = 1; i < holders.length; i++) {
      let ancestor = holders[i]!.parentId;
      while (ancestor !== undefined && ancestor !== holders[i - 1]!.id)
        ancestor = ordered.find((shard) => shard.id === ancestor)?.parentId;
      expect(ancestor).toBe(holders[i - 1]!.id);
    }
    const values = holders.flatMap((shard) =>
      shardRecords(f, arn, shard.id).map((record) => record.dynamodb!.NewImage!.v!.N),
    );
    expect(values).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('trims records older than 24 hours and drops closed shards once all they held is past retention (docs/streams-and-lambda.md §1.4.6)', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    put(f.engine, 'Items', { pk: s('old') });
    await f.clock.advance('20h');
    put(f.engine, 'Items', { pk: s('new') });
    expect(readStreamRecords(f.streams, arn)).toHaveLength(2);
    await f.clock.advance('5h');
    const left = readStreamRecords(f.streams, arn).map(
      (record) => (record.dynamodb as { Keys: { pk: { S: string } } }).Keys.pk.S,
    );
    expect(left).toEqual(['new']);
    const oldest = () =>
      Math.min(...describeStream(f, arn).Shards.map((shard) => Number(shard.ShardId.slice(8, 28))));
    // At 25h the generation opened at 0h (closed at 4h) may still hold records of 1h–4h: kept.
    expect(oldest()).toBe(START);
    await f.clock.advance('4h');
    // At 29h everything it could hold is past retention: only generations from 4h on are left.
    expect(oldest()).toBe(START + 4 * 3_600_000);
  });

  it('keeps a bounded, consistent set of shards after a long idle period', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    await f.clock.advance('10d');
    put(f.engine, 'Items', { pk: s('a') });
    const shards = describeStream(f, arn).Shards;
    expect(shards.length).toBeLessThanOrEqual(4 * 8);
    expect(
      shards.filter((shard) => shard.SequenceNumberRange.EndingSequenceNumber === undefined),
    ).toHaveLength(4);
    const open = shards.filter((shard) => shard.SequenceNumberRange.EndingSequenceNumber === undefined);
    for (const shard of open) expect(Number(shard.ShardId.slice(8, 28))).toBe(START + 240 * 3_600_000);
    expect(readStreamRecords(f.streams, arn)).toHaveLength(1);
  });

  it('answers TrimmedDataAccessException for a sequence number older than the trim point, and for an iterator whose record was trimmed before use (docs/streams-and-lambda.md §1.5.4)', async () => {
    const f = fixture({ changeLog: { shardCount: 1 } });
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    put(f.engine, 'Items', { pk: s('a') });
    const [shard] = describeStream(f, arn).Shards;
    const [record] = shardRecords(f, arn, shard!.ShardId);
    const sequenceNumber = record!.dynamodb!.SequenceNumber;
    await f.clock.advance(24 * 3_600_000 - 5 * 60_000);
    const iterator = f.streams.execute('GetShardIterator', {
      StreamArn: arn,
      ShardId: shard!.ShardId,
      ShardIteratorType: 'TRIM_HORIZON',
    }).ShardIterator;
    await f.clock.advance('10m');
    expect(wireError(() => f.streams.execute('GetRecords', { ShardIterator: iterator }))).toEqual({
      __type: TRIMMED,
      message: 'The data you are trying to access has been trimmed',
    });
    expect(
      wireError(() =>
        f.streams.execute('GetShardIterator', {
          StreamArn: arn,
          ShardId: shard!.ShardId,
          ShardIteratorType: 'AT_SEQUENCE_NUMBER',
          SequenceNumber: sequenceNumber,
        }),
      ).__type,
    ).toBe(TRIMMED);
    // AFTER the trimmed record is still fine: nothing it points to is gone.
    expect(
      f.streams.execute('GetShardIterator', {
        StreamArn: arn,
        ShardId: shard!.ShardId,
        ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
        SequenceNumber: sequenceNumber,
      }).ShardIterator,
    ).toBeTypeOf('string');
  });
});

describe('DescribeStream (docs/streams-and-lambda.md §1.4.2, §1.4.8, §1.4.9)', () => {
  it('describes the stream: ARN, label, status, view type, creation time, table and key schema', () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'NEW_IMAGE', { range: true }).LatestStreamArn as string;
    const description = describeStream(f, arn);
    expect(description).toMatchObject({
      StreamArn: arn,
      StreamLabel: '2026-01-01T12:00:00.000',
      StreamStatus: 'ENABLED',
      StreamViewType: 'NEW_IMAGE',
      CreationRequestDateTime: START / 1000,
      TableName: 'Items',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    });
    expect(Object.keys(description)).toEqual([
      'StreamArn',
      'StreamLabel',
      'StreamStatus',
      'StreamViewType',
      'CreationRequestDateTime',
      'TableName',
      'KeySchema',
      'Shards',
    ]);
  });

  it('pages shards in lexical ShardId order with Limit, ExclusiveStartShardId and LastEvaluatedShardId', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    await f.clock.advance('9h'); // three generations: 12 shards
    const all = describeStream(f, arn).Shards.map((shard) => shard.ShardId);
    expect(all).toHaveLength(12);
    expect(all).toEqual([...all].sort());
    const paged: string[] = [];
    let page = describeStream(f, arn, { Limit: 5 });
    paged.push(...page.Shards.map((shard) => shard.ShardId));
    while (page.LastEvaluatedShardId !== undefined) {
      expect(page.LastEvaluatedShardId).toBe(paged.at(-1));
      page = describeStream(f, arn, { Limit: 5, ExclusiveStartShardId: page.LastEvaluatedShardId });
      paged.push(...page.Shards.map((shard) => shard.ShardId));
    }
    expect(paged).toEqual(all);
    expect(describeStream(f, arn, { ExclusiveStartShardId: all.at(-1) }).Shards).toEqual([]);
    expect(
      describeStream(f, arn, { ExclusiveStartShardId: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz' }).Shards,
    ).toEqual([]);
    expect(describeStream(f, arn, { Limit: 100 }).LastEvaluatedShardId).toBeUndefined();
  });

  it('lists the children of a shard with ShardFilter CHILD_SHARDS', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    const [first] = describeStream(f, arn).Shards;
    await f.clock.advance('4h');
    const children = describeStream(f, arn, {
      ShardFilter: { Type: 'CHILD_SHARDS', ShardId: first!.ShardId },
    }).Shards;
    expect(children).toHaveLength(1);
    expect(children[0]!.ParentShardId).toBe(first!.ShardId);
  });

  it('rejects Limit above 100 and malformed ARNs with ValidationException, unknown streams with ResourceNotFoundException', () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    expect(wireError(() => describeStream(f, arn, { Limit: 101 }))).toEqual({
      __type: VALIDATION,
      message:
        "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100",
    });
    expect(
      wireError(() => describeStream(f, 'sdfadfsdfnlfkajakfgjalksfgklasjklasdjfklasdfasdfgasf')).__type,
    ).toBe(VALIDATION);
    const unknown = arn.replace('2026-01-01T12:00:00.000', '2020-01-01T00:00:00.000');
    expect(wireError(() => describeStream(f, unknown))).toEqual({
      __type: NOT_FOUND,
      message: `Requested resource not found: Stream: ${unknown} not found`,
    });
  });

  it('shows ENABLING and DISABLING while the table update settles (docs/streams-and-lambda.md §1.4.8)', async () => {
    const f = fixture({ engine: { transientStatusDelayMs: 1000 } });
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    expect(describeStream(f, arn).StreamStatus).toBe('ENABLING');
    await f.clock.advance('1s');
    expect(describeStream(f, arn).StreamStatus).toBe('ENABLED');
    setStream(f.engine, 'Items', false);
    expect(describeStream(f, arn).StreamStatus).toBe('DISABLING');
    await f.clock.advance('1s');
    expect(describeStream(f, arn).StreamStatus).toBe('DISABLED');
  });
});

describe('stream lifecycle (docs/streams-and-lambda.md §1.4.7, §1.1.8, §1.6)', () => {
  it('closes every shard on disable, stays listable, describable and readable for 24 hours, then is gone', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    put(f.engine, 'Items', { pk: s('a') });
    setStream(f.engine, 'Items', false);
    const description = describeStream(f, arn);
    expect(description.StreamStatus).toBe('DISABLED');
    for (const shard of description.Shards)
      expect(shard.SequenceNumberRange.EndingSequenceNumber).toMatch(/^\d+$/);
    expect(f.streams.execute('ListStreams', { TableName: 'Items' }).Streams).toEqual([
      { StreamArn: arn, TableName: 'Items', StreamLabel: '2026-01-01T12:00:00.000' },
    ]);
    // Readable to the end: the shard holding the record ends without NextShardIterator
    // (docs/streams-and-lambda.md §1.5.7).
    let total = 0;
    for (const shard of description.Shards) {
      const iterator = f.streams.execute('GetShardIterator', {
        StreamArn: arn,
        ShardId: shard.ShardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }).ShardIterator;
      const output = f.streams.execute('GetRecords', { ShardIterator: iterator });
      total += (output.Records as unknown[]).length;
      expect(output).not.toHaveProperty('NextShardIterator');
    }
    expect(total).toBe(1);
    await f.clock.advance('24h');
    expect(wireError(() => describeStream(f, arn)).__type).toBe(NOT_FOUND);
    expect(f.streams.execute('ListStreams', {}).Streams).toEqual([]);
  });

  it('records nothing while disabled; re-enabling makes a new stream with a new ARN and label', async () => {
    const f = fixture();
    const first = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    put(f.engine, 'Items', { pk: s('before') });
    setStream(f.engine, 'Items', false);
    put(f.engine, 'Items', { pk: s('while-disabled') });
    setStream(f.engine, 'Items', 'NEW_IMAGE');
    put(f.engine, 'Items', { pk: s('after') });
    const second = latestStreamArn(f.engine, 'Items');
    expect(second).not.toBe(first);
    const keysOf = (arn: string) =>
      readStreamRecords(f.streams, arn).map(
        (record) => (record.dynamodb as { Keys: { pk: { S: string } } }).Keys.pk.S,
      );
    expect(keysOf(first)).toEqual(['before']);
    expect(keysOf(second)).toEqual(['after']);
    expect(describeStream(f, second)).toMatchObject({ StreamStatus: 'ENABLED', StreamViewType: 'NEW_IMAGE' });
    expect(describeStream(f, first).StreamStatus).toBe('DISABLED');
    const listed = (
      f.streams.execute('ListStreams', { TableName: 'Items' }).Streams as { StreamArn: string }[]
    ).map((stream) => stream.StreamArn);
    expect(listed.sort()).toEqual([first, second].sort());
  });

  it('creates the stream when UpdateTable enables it, with no write needed', () => {
    const f = fixture();
    createTable(f.engine, 'Items', undefined);
    setStream(f.engine, 'Items', 'OLD_IMAGE');
    const arn = latestStreamArn(f.engine, 'Items');
    expect(f.streams.execute('ListStreams', {}).Streams).toEqual([
      { StreamArn: arn, TableName: 'Items', StreamLabel: arn.split('/stream/')[1] },
    ]);
    expect(describeStream(f, arn).Shards).toHaveLength(4);
  });

  it('disables the stream of a deleted table; it stays readable for 24 hours (DeleteTable)', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    put(f.engine, 'Items', { pk: s('a') });
    f.engine.execute('DeleteTable', { TableName: 'Items' });
    expect(describeStream(f, arn).StreamStatus).toBe('DISABLED');
    expect(readStreamRecords(f.streams, arn)).toHaveLength(1);
    // A new table of the same name gets its own stream.
    await f.clock.advance(1);
    const next = createTable(f.engine, 'Items', 'KEYS_ONLY').LatestStreamArn as string;
    expect(next).not.toBe(arn);
    expect(f.streams.execute('ListStreams', { TableName: 'Items' }).Streams).toHaveLength(2);
    await f.clock.advance('24h');
    expect(f.streams.execute('ListStreams', { TableName: 'Items' }).Streams).toHaveLength(1);
  });
});
