import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { toWireJson } from '../../core/wire.js';
import { EXPIRED, NOT_FOUND, VALIDATION, wireError } from '../helpers/errors.js';
import { createTable, fixture, n, put, type StreamsFixture, s } from './helpers.js';

/** docs/streams-and-lambda.md §1.5 (GetShardIterator, GetRecords) and ListStreams, through StreamsService. */

function oneShard(viewType: 'KEYS_ONLY' | 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES' = 'KEYS_ONLY') {
  const f = fixture({ changeLog: { shardCount: 1 } });
  const arn = createTable(f.engine, 'Items', viewType).LatestStreamArn as string;
  const description = f.streams.execute('DescribeStream', { StreamArn: arn }).StreamDescription as {
    Shards: { ShardId: string; SequenceNumberRange: { StartingSequenceNumber: string } }[];
  };
  const shard = description.Shards[0]!;
  return { f, arn, shardId: shard.ShardId, start: shard.SequenceNumberRange.StartingSequenceNumber };
}

function iterator(
  f: StreamsFixture,
  arn: string,
  shardId: string,
  type: string,
  sequenceNumber?: string,
): string {
  const input: Record<string, unknown> = { StreamArn: arn, ShardId: shardId, ShardIteratorType: type };
  if (sequenceNumber !== undefined) input.SequenceNumber = sequenceNumber;
  return f.streams.execute('GetShardIterator', input).ShardIterator as string;
}

function getRecords(f: StreamsFixture, shardIterator: string, limit?: number) {
  const output = f.streams.execute(
    'GetRecords',
    limit === undefined ? { ShardIterator: shardIterator } : { ShardIterator: shardIterator, Limit: limit },
  );
  return {
    records: output.Records as DynamoDBRecord[],
    next: output.NextShardIterator as string | undefined,
    output,
  };
}

const keysOf = (records: DynamoDBRecord[]) => records.map((record) => record.dynamodb!.Keys!.pk!.S);

describe('GetShardIterator (docs/streams-and-lambda.md §1.5.1, §1.5.2)', () => {
  it('starts TRIM_HORIZON at the oldest record, LATEST after the newest, AT_ at and AFTER_ after a sequence number', () => {
    const { f, arn, shardId } = oneShard();
    put(f.engine, 'Items', { pk: s('a') });
    put(f.engine, 'Items', { pk: s('b') });
    const latest = iterator(f, arn, shardId, 'LATEST');
    put(f.engine, 'Items', { pk: s('c') });
    const all = getRecords(f, iterator(f, arn, shardId, 'TRIM_HORIZON')).records;
    expect(keysOf(all)).toEqual(['a', 'b', 'c']);
    expect(keysOf(getRecords(f, latest).records)).toEqual(['c']);
    const second = all[1]!.dynamodb!.SequenceNumber!;
    expect(keysOf(getRecords(f, iterator(f, arn, shardId, 'AT_SEQUENCE_NUMBER', second)).records)).toEqual([
      'b',
      'c',
    ]);
    expect(keysOf(getRecords(f, iterator(f, arn, shardId, 'AFTER_SEQUENCE_NUMBER', second)).records)).toEqual(
      ['c'],
    );
  });

  it('accepts the StartingSequenceNumber of a shard for AT_ and AFTER_, reading everything from there', () => {
    const { f, arn, shardId, start } = oneShard();
    put(f.engine, 'Items', { pk: s('a') });
    put(f.engine, 'Items', { pk: s('b') });
    expect(keysOf(getRecords(f, iterator(f, arn, shardId, 'AT_SEQUENCE_NUMBER', start)).records)).toEqual([
      'a',
      'b',
    ]);
    expect(iterator(f, arn, shardId, 'AFTER_SEQUENCE_NUMBER', start)).toBeTypeOf('string');
  });

  it('requires SequenceNumber for AT_/AFTER_SEQUENCE_NUMBER and forbids it for TRIM_HORIZON/LATEST', () => {
    const { f, arn, shardId, start } = oneShard();
    for (const type of ['AT_SEQUENCE_NUMBER', 'AFTER_SEQUENCE_NUMBER']) {
      expect(wireError(() => iterator(f, arn, shardId, type))).toEqual({
        __type: VALIDATION,
        message: `Must either specify (1) AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER and SequenceNumber or (2) TRIM_HORIZON or LATEST and no SequenceNumber. Request specified ${type} and no SequenceNumber.`,
      });
    }
    for (const type of ['TRIM_HORIZON', 'LATEST'])
      expect(wireError(() => iterator(f, arn, shardId, type, start)).__type).toBe(VALIDATION);
  });

  it('rejects a bad iterator type, a malformed sequence number and a malformed ARN with ValidationException', () => {
    const { f, arn, shardId, start } = oneShard();
    expect(wireError(() => iterator(f, arn, shardId, 'bulle', start))).toEqual({
      __type: VALIDATION,
      message:
        "1 validation error detected: Value 'bulle' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]",
    });
    expect(
      wireError(() => iterator(f, arn, shardId, 'LATEST', 'sdfsafglldfngjdafnasdflgnaldklkafdsgklnasdlv'))
        .__type,
    ).toBe(VALIDATION);
    expect(wireError(() => iterator(f, arn, shardId, 'AT_SEQUENCE_NUMBER', 'x'.repeat(25))).__type).toBe(
      VALIDATION,
    );
    expect(
      wireError(() =>
        iterator(f, 'sdfadsfsdfsdgdfsgsfdabadfbabdadsfsdfsdfsdfsdfsdfsdfdfdssdffbdfdf', shardId, 'LATEST'),
      ).__type,
    ).toBe(VALIDATION);
  });

  it('answers ResourceNotFoundException for an unknown shard of a valid stream', () => {
    const { f, arn } = oneShard();
    expect(
      wireError(() => iterator(f, arn, 'semprinidfaasdasfsdvacsdcfsdsvsdvsdvsdvsdvsdv', 'LATEST')),
    ).toEqual({
      __type: NOT_FOUND,
      message: 'Requested resource not found: Shard does not exist',
    });
  });

  it('answers SerializationException for members of the wrong type', () => {
    const { f, arn, shardId } = oneShard();
    const error = wireError(() =>
      f.streams.execute('GetShardIterator', { StreamArn: arn, ShardId: shardId, ShardIteratorType: 5 }),
    );
    expect(error.__type).toBe('com.amazon.coral.service#SerializationException');
  });
});

describe('GetRecords (docs/streams-and-lambda.md §1.5.5–§1.5.9)', () => {
  it('returns at most Limit records and rejects Limit above 1000', () => {
    const { f, arn, shardId } = oneShard();
    for (let i = 0; i < 5; i++) put(f.engine, 'Items', { pk: s(`k${i}`) });
    const first = getRecords(f, iterator(f, arn, shardId, 'TRIM_HORIZON'), 2);
    expect(keysOf(first.records)).toEqual(['k0', 'k1']);
    const second = getRecords(f, first.next!, 2);
    expect(keysOf(second.records)).toEqual(['k2', 'k3']);
    expect(wireError(() => getRecords(f, second.next!, 1001))).toEqual({
      __type: VALIDATION,
      message:
        "1 validation error detected: Value '1001' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 1000",
    });
    expect(wireError(() => getRecords(f, second.next!, 0)).__type).toBe(VALIDATION);
  });

  it('stops before 1 MB of data', () => {
    const { f, arn, shardId } = oneShard('NEW_IMAGE');
    const big = 'x'.repeat(300_000);
    for (let i = 0; i < 4; i++) put(f.engine, 'Items', { pk: s(`k${i}`), big: s(big) });
    const first = getRecords(f, iterator(f, arn, shardId, 'TRIM_HORIZON'));
    expect(first.records).toHaveLength(3);
    expect(first.records.reduce((sum, record) => sum + record.dynamodb!.SizeBytes!, 0)).toBeLessThanOrEqual(
      1024 * 1024,
    );
    expect(keysOf(getRecords(f, first.next!).records)).toEqual(['k3']);
  });

  it('returns Records: [] and a NextShardIterator on an open shard with nothing new (docs/streams-and-lambda.md §1.5.6)', () => {
    const { f, arn, shardId } = oneShard();
    const empty = getRecords(f, iterator(f, arn, shardId, 'LATEST'));
    expect(empty.output).toEqual({ Records: [], NextShardIterator: expect.any(String) });
    put(f.engine, 'Items', { pk: s('later') });
    expect(keysOf(getRecords(f, empty.next!).records)).toEqual(['later']);
  });

  it('omits NextShardIterator once a closed shard is read to its end (docs/streams-and-lambda.md §1.5.7)', async () => {
    const { f, arn, shardId } = oneShard();
    put(f.engine, 'Items', { pk: s('a') });
    put(f.engine, 'Items', { pk: s('b') });
    await f.clock.advance('4h');
    const first = getRecords(f, iterator(f, arn, shardId, 'TRIM_HORIZON'), 1);
    expect(first.next).toBeTypeOf('string');
    const last = getRecords(f, first.next!, 1);
    expect(keysOf(last.records)).toEqual(['b']);
    expect(last.output).not.toHaveProperty('NextShardIterator');
    expect(getRecords(f, iterator(f, arn, shardId, 'LATEST')).output).toEqual({ Records: [] });
  });

  it('re-reads the same records in the same order with the same sequence numbers (docs/streams-and-lambda.md §1.5.8)', () => {
    const { f, arn, shardId } = oneShard('NEW_AND_OLD_IMAGES');
    for (let i = 0; i < 10; i++) put(f.engine, 'Items', { pk: s(`k${i % 3}`), v: n(i) });
    const once = getRecords(f, iterator(f, arn, shardId, 'TRIM_HORIZON')).records;
    const twice = getRecords(f, iterator(f, arn, shardId, 'TRIM_HORIZON')).records;
    expect(twice).toEqual(once);
    const numbers = once.map((record) => BigInt(record.dynamodb!.SequenceNumber!));
    expect(numbers).toEqual([...numbers].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('answers ExpiredIteratorException for an iterator more than 15 minutes old (docs/streams-and-lambda.md §1.5.3)', async () => {
    const { f, arn, shardId } = oneShard();
    const fresh = iterator(f, arn, shardId, 'TRIM_HORIZON');
    await f.clock.advance('15m');
    const next = getRecords(f, fresh).next!;
    await f.clock.advance(15 * 60_000 + 1);
    expect(wireError(() => getRecords(f, next))).toEqual({
      __type: EXPIRED,
      message: 'The provided iterator exceeds the maximum age allowed.',
    });
  });

  it('answers ValidationException for a malformed or edited iterator (docs/streams-and-lambda.md §1.5.9)', () => {
    const { f, arn, shardId } = oneShard();
    const good = iterator(f, arn, shardId, 'TRIM_HORIZON');
    for (const bad of [
      'sdfsdfsgagaddafgagasgasgasdfasdfasdfasdfasdgasdasdgasdg',
      `${good}x`,
      good.replace('|1|', '|2|'),
    ]) {
      expect(wireError(() => getRecords(f, bad))).toEqual({
        __type: VALIDATION,
        message: 'Invalid ShardIterator',
      });
    }
  });

  it('splices stored item text on the wire path: the raw output serialises to the same JSON', () => {
    const { f, arn, shardId } = oneShard('NEW_AND_OLD_IMAGES');
    put(f.engine, 'Items', { pk: s('a'), nested: { M: { z: n(1), list: { L: [s('x'), { NULL: true }] } } } });
    put(f.engine, 'Items', { pk: s('a'), set: { SS: ['b', 'a'] } });
    const input = { ShardIterator: iterator(f, arn, shardId, 'TRIM_HORIZON') };
    const raw = f.streams.executeRaw('GetRecords', input);
    expect(JSON.parse(toWireJson(raw))).toEqual(f.streams.execute('GetRecords', input));
  });
});

describe('ListStreams', () => {
  it('lists streams of the caller’s region, filters by TableName and pages with ExclusiveStartStreamArn', () => {
    const f = fixture();
    const arns = ['Alpha', 'Beta', 'Gamma'].map(
      (name) => createTable(f.engine, name, 'KEYS_ONLY').LatestStreamArn as string,
    );
    createTable(f.engine, 'NoStream', undefined);
    const all = f.streams.execute('ListStreams', {});
    expect((all.Streams as { StreamArn: string }[]).map((stream) => stream.StreamArn)).toEqual(arns);
    expect(all).not.toHaveProperty('LastEvaluatedStreamArn');
    const page = f.streams.execute('ListStreams', { Limit: 2 });
    expect(page.LastEvaluatedStreamArn).toBe(arns[1]);
    expect(f.streams.execute('ListStreams', { ExclusiveStartStreamArn: arns[1] }).Streams).toEqual([
      { StreamArn: arns[2], TableName: 'Gamma', StreamLabel: '2026-01-01T12:00:00.000' },
    ]);
    expect(f.streams.execute('ListStreams', { TableName: 'Beta' }).Streams).toHaveLength(1);
    expect(f.streams.execute('ListStreams', { TableName: 'NoStream' }).Streams).toEqual([]);
    expect(f.streams.execute('ListStreams', {}, { region: 'eu-west-1' }).Streams).toEqual([]);
  });

  it('rejects Limit 0 and above 100, a malformed ExclusiveStartStreamArn, and answers ResourceNotFoundException for an unknown table', () => {
    const f = fixture();
    createTable(f.engine, 'Alpha', 'KEYS_ONLY');
    expect(wireError(() => f.streams.execute('ListStreams', { Limit: 0 })).__type).toBe(VALIDATION);
    expect(wireError(() => f.streams.execute('ListStreams', { Limit: 101 })).__type).toBe(VALIDATION);
    expect(
      wireError(() =>
        f.streams.execute('ListStreams', {
          TableName: 'Alpha',
          ExclusiveStartStreamArn: 'kossaapaaasdafsdaasdasdasdasasdasfadfadfasdasdas',
        }),
      ).__type,
    ).toBe(VALIDATION);
    expect(wireError(() => f.streams.execute('ListStreams', { TableName: 'Nope' }))).toEqual({
      __type: NOT_FOUND,
      message: 'Requested resource not found: Table: Nope not found',
    });
  });

  it('answers UnknownOperationException for operations it does not have', () => {
    const f = fixture();
    expect(f.streams.supports('ListStreams')).toBe(true);
    expect(f.streams.supports('PutItem')).toBe(false);
    expect(wireError(() => f.streams.execute('PutItem', {}))).toEqual({
      __type: 'com.amazon.coral.service#UnknownOperationException',
    });
  });
});
