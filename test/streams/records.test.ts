import type { DynamoDBRecord } from 'aws-lambda';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { StreamViewType } from '../../core/store/table.js';
import { changes$ } from '../../streams/changes.js';
import { compareSequenceNumbers } from '../../streams/sequenceNumber.js';
import { readStreamRecords } from '../helpers/streamRecords.js';
import {
  createKeyedTable,
  createTable,
  del,
  fixture,
  n,
  put,
  START,
  type StreamsFixture,
  s,
  ttlDelete,
} from './helpers.js';

/** docs/streams-and-lambda.md §1.1 and §1.2: the record envelope and the StreamRecord body, via both APIs. */

/** The table's records from the RxJS replay and from GetRecords (in sequence-number order). */
async function bothWays(f: StreamsFixture, table: string, arn: string) {
  const rx = await lastValueFrom(
    changes$(f.changeLog, table, { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
  );
  const api = readStreamRecords(f.streams, arn).sort((a, b) =>
    compareSequenceNumbers(
      (a.dynamodb as { SequenceNumber: string }).SequenceNumber,
      (b.dynamodb as { SequenceNumber: string }).SequenceNumber,
    ),
  );
  return { rx, api };
}

/** A Lambda record without `eventSourceARN` and with the wire spelling of `userIdentity`. */
function asWire(record: DynamoDBRecord): Record<string, unknown> {
  const {
    eventSourceARN: _arn,
    userIdentity,
    ...rest
  } = JSON.parse(JSON.stringify(record)) as DynamoDBRecord;
  return userIdentity === undefined
    ? rest
    : { ...rest, userIdentity: { Type: userIdentity.type, PrincipalId: userIdentity.principalId } };
}

describe('record envelope (docs/streams-and-lambda.md §1.1)', () => {
  it('carries eventID, eventName, eventVersion 1.1, eventSource aws:dynamodb, awsRegion and dynamodb, in the recorded order', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Orders', 'NEW_AND_OLD_IMAGES').LatestStreamArn as string;
    put(f.engine, 'Orders', { pk: s('a') });
    const { rx, api } = await bothWays(f, 'Orders', arn);
    expect(Object.keys(rx[0]!)).toEqual([
      'eventID',
      'eventName',
      'eventVersion',
      'eventSource',
      'awsRegion',
      'dynamodb',
      'eventSourceARN',
    ]);
    expect(rx[0]).toMatchObject({
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: arn,
    });
    expect(Object.keys(api[0]!)).toEqual([
      'eventID',
      'eventName',
      'eventVersion',
      'eventSource',
      'awsRegion',
      'dynamodb',
    ]);
    expect(api[0]).toEqual(asWire(rx[0]!));
  });

  it('gives each record a 32-character lowercase hex eventID, unique and stable across re-reads', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Orders', 'KEYS_ONLY').LatestStreamArn as string;
    for (let i = 0; i < 300; i++) put(f.engine, 'Orders', { pk: s(`k${i % 50}`), v: n(i) });
    const { rx, api } = await bothWays(f, 'Orders', arn);
    const ids = rx.map((record) => record.eventID!);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(300);
    expect(api.map((record) => record.eventID).sort()).toEqual([...ids].sort());
  });

  it('uses the stream ARN arn:aws:dynamodb:{region}:{account}:table/{Table}/stream/{label} as eventSourceARN', async () => {
    const f = fixture();
    const description = createTable(f.engine, 'Orders', 'KEYS_ONLY');
    expect(description.LatestStreamLabel).toBe('2026-01-01T12:00:00.000');
    expect(description.LatestStreamArn).toBe(
      'arn:aws:dynamodb:us-east-1:000000000000:table/Orders/stream/2026-01-01T12:00:00.000',
    );
  });

  it('reports the region of the stream as awsRegion', async () => {
    const f = fixture({ engine: { region: 'eu-west-3' } });
    createTable(f.engine, 'Orders', 'KEYS_ONLY');
    put(f.engine, 'Orders', { pk: s('a') });
    const [record] = await lastValueFrom(
      changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
    );
    expect(record!.awsRegion).toBe('eu-west-3');
    expect(record!.eventSourceARN).toMatch(/^arn:aws:dynamodb:eu-west-3:/);
    const [wire] = readStreamRecords(f.streams, record!.eventSourceARN!);
    expect(wire!.awsRegion).toBe('eu-west-3');
    expect(f.streams.execute('ListStreams', {}, { region: 'us-east-1' }).Streams).toEqual([]);
  });
});

describe('StreamRecord body (docs/streams-and-lambda.md §1.2)', () => {
  it('holds only the key attributes in Keys, with the view type on every record', async () => {
    const f = fixture();
    const arn = createTable(f.engine, 'Orders', 'NEW_IMAGE', { range: true }).LatestStreamArn as string;
    put(f.engine, 'Orders', { pk: s('a'), sk: s('1'), other: s('x') });
    const { rx, api } = await bothWays(f, 'Orders', arn);
    expect(rx[0]!.dynamodb!.Keys).toEqual({ pk: { S: 'a' }, sk: { S: '1' } });
    expect(rx[0]!.dynamodb!.StreamViewType).toBe('NEW_IMAGE');
    expect(api[0]!.dynamodb).toMatchObject({
      Keys: { pk: { S: 'a' }, sk: { S: '1' } },
      StreamViewType: 'NEW_IMAGE',
    });
  });

  it('writes Keys as typed AttributeValue JSON: N as a normalised digit string, B as base64 (docs/streams-and-lambda.md §1.2.1)', async () => {
    const f = fixture();
    const arn = createKeyedTable(
      f.engine,
      'Typed',
      [
        ['bin', 'B'],
        ['num', 'N'],
      ],
      'KEYS_ONLY',
    );
    put(f.engine, 'Typed', { bin: { B: 'AQID' }, num: n('007.50'), other: { L: [s('x')] } });
    const { rx, api } = await bothWays(f, 'Typed', arn);
    expect(rx[0]!.dynamodb!.Keys).toEqual({ bin: { B: 'AQID' }, num: { N: '7.5' } });
    expect((api[0]!.dynamodb as { Keys: unknown }).Keys).toEqual({ bin: { B: 'AQID' }, num: { N: '7.5' } });
  });

  const table: [StreamViewType, string[], string[], string[]][] = [
    ['KEYS_ONLY', [], [], []],
    ['NEW_IMAGE', ['NewImage'], ['NewImage'], []],
    ['OLD_IMAGE', [], ['OldImage'], ['OldImage']],
    ['NEW_AND_OLD_IMAGES', ['NewImage'], ['NewImage', 'OldImage'], ['OldImage']],
  ];
  it.each(table)(
    'shows the images of docs/streams-and-lambda.md §1.2.3 for %s (INSERT %j, MODIFY %j, REMOVE %j)',
    async (viewType, insert, modify, remove) => {
      const f = fixture();
      const arn = createTable(f.engine, 'Orders', viewType).LatestStreamArn as string;
      put(f.engine, 'Orders', { pk: s('a'), v: n(1) });
      put(f.engine, 'Orders', { pk: s('a'), v: n(2) });
      del(f.engine, 'Orders', { pk: s('a') });
      const { rx, api } = await bothWays(f, 'Orders', arn);
      const images = (body: object) => Object.keys(body).filter((key) => key.endsWith('Image'));
      expect(rx.map((record) => images(record.dynamodb!))).toEqual([insert, modify, remove]);
      expect(api.map((record) => images(record.dynamodb as object))).toEqual([insert, modify, remove]);
      expect(api).toEqual(rx.map(asWire));
    },
  );

  it('puts the whole item in NewImage and OldImage, key included, even an item of only its key (docs/streams-and-lambda.md §1.2.4)', async () => {
    const f = fixture();
    createTable(f.engine, 'Orders', 'NEW_AND_OLD_IMAGES');
    put(f.engine, 'Orders', { pk: s('a') });
    f.engine.execute('UpdateItem', {
      TableName: 'Orders',
      Key: { pk: s('a') },
      UpdateExpression: 'SET x = :x',
      ExpressionAttributeValues: { ':x': n(1) },
    });
    const rx = await lastValueFrom(
      changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
    );
    expect(rx[0]!.dynamodb!.NewImage).toEqual({ pk: { S: 'a' } });
    expect(rx[1]!.dynamodb!.OldImage).toEqual({ pk: { S: 'a' } });
    expect(rx[1]!.dynamodb!.NewImage).toEqual({ pk: { S: 'a' }, x: { N: '1' } });
  });

  it('gives ApproximateCreationDateTime as whole epoch seconds, rounded down (docs/streams-and-lambda.md §1.2.5)', async () => {
    const f = fixture();
    createTable(f.engine, 'Orders', 'KEYS_ONLY');
    await f.clock.advance(1999);
    put(f.engine, 'Orders', { pk: s('a') });
    const [record] = await lastValueFrom(
      changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
    );
    expect(record!.dynamodb!.ApproximateCreationDateTime).toBe(Math.floor((START + 1999) / 1000));
    expect(String(record!.dynamodb!.ApproximateCreationDateTime)).toMatch(/^\d{10}$/);
  });

  it('numbers records with 21 to 40 decimal digits, strictly increasing as big integers (docs/streams-and-lambda.md §1.2.6)', async () => {
    const f = fixture();
    createTable(f.engine, 'Orders', 'KEYS_ONLY');
    for (let i = 0; i < 20; i++) put(f.engine, 'Orders', { pk: s('same'), v: n(i) });
    const rx = await lastValueFrom(
      changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
    );
    const numbers = rx.map((record) => record.dynamodb!.SequenceNumber!);
    for (const text of numbers) expect(text).toMatch(/^\d{21,40}$/);
    for (let i = 1; i < numbers.length; i++) expect(BigInt(numbers[i]!) > BigInt(numbers[i - 1]!)).toBe(true);
  });

  describe('SizeBytes (docs/streams-and-lambda.md §1.2.7 test vectors)', () => {
    it('is 26, 59 and 38 for the AWS INSERT/MODIFY/REMOVE example events', async () => {
      const f = fixture();
      const arn = createKeyedTable(f.engine, 'ExampleTable', [['Id', 'N']], 'NEW_AND_OLD_IMAGES');
      put(f.engine, 'ExampleTable', { Message: s('New item!'), Id: n(101) });
      put(f.engine, 'ExampleTable', { Message: s('This item has changed'), Id: n(101) });
      del(f.engine, 'ExampleTable', { Id: n(101) });
      const { rx, api } = await bothWays(f, 'ExampleTable', arn);
      expect(rx.map((record) => record.dynamodb!.SizeBytes)).toEqual([26, 59, 38]);
      expect(api.map((record) => (record.dynamodb as { SizeBytes: number }).SizeBytes)).toEqual([26, 59, 38]);
    });

    it('is 41 for the KEYS_ONLY GetRecords example', async () => {
      const f = fixture();
      const arn = createKeyedTable(
        f.engine,
        'Thread',
        [
          ['ForumName', 'S'],
          ['Subject', 'S'],
        ],
        'KEYS_ONLY',
      );
      put(f.engine, 'Thread', { ForumName: s('DynamoDB'), Subject: s('DynamoDB Thread 3'), Views: n(0) });
      const { rx, api } = await bothWays(f, 'Thread', arn);
      expect(rx[0]!.dynamodb!.SizeBytes).toBe(41);
      expect((api[0]!.dynamodb as { SizeBytes: number }).SizeBytes).toBe(41);
    });

    it('is 70, 58 and 39 for the AWS-recorded NEW_IMAGE records', async () => {
      const f = fixture();
      createKeyedTable(f.engine, 'Recorded', [['my_partition_key', 'S']], 'NEW_IMAGE');
      put(f.engine, 'Recorded', { my_partition_key: s('hello world'), binary_key: { B: 'Zm9vYmFy' } });
      put(f.engine, 'Recorded', { my_partition_key: s('testId0'), should_fail: { BOOL: true } });
      createKeyedTable(f.engine, 'Numbers', [['id', 'S']], 'NEW_IMAGE');
      put(f.engine, 'Numbers', { id: s('id_value_1'), numeric_value: n(42) });
      const recorded = await lastValueFrom(
        changes$(f.changeLog, 'Recorded', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
      );
      const numbers = await lastValueFrom(
        changes$(f.changeLog, 'Numbers', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
      );
      expect([...recorded, ...numbers].map((record) => record.dynamodb!.SizeBytes)).toEqual([70, 58, 39]);
    });

    it('counts only the images the view type shows', async () => {
      const sizes: Record<string, number[]> = {};
      for (const viewType of ['KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES'] as const) {
        const f = fixture();
        createKeyedTable(f.engine, 'ExampleTable', [['Id', 'N']], viewType);
        put(f.engine, 'ExampleTable', { Message: s('New item!'), Id: n(101) });
        put(f.engine, 'ExampleTable', { Message: s('This item has changed'), Id: n(101) });
        del(f.engine, 'ExampleTable', { Id: n(101) });
        const rx = await lastValueFrom(
          changes$(f.changeLog, 'ExampleTable', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
        );
        sizes[viewType] = rx.map((record) => record.dynamodb!.SizeBytes!);
      }
      expect(sizes).toEqual({
        KEYS_ONLY: [5, 5, 5],
        NEW_IMAGE: [26, 38, 5],
        OLD_IMAGE: [5, 26, 38],
        NEW_AND_OLD_IMAGES: [26, 59, 38],
      });
    });
  });

  describe('userIdentity (docs/streams-and-lambda.md §1.2.8, §1.2.9)', () => {
    it('marks TTL deletes with the service principal: lower camel case for Lambda, capitalised on the wire', async () => {
      const f = fixture();
      const arn = createTable(f.engine, 'Sessions', 'OLD_IMAGE').LatestStreamArn as string;
      put(f.engine, 'Sessions', { pk: s('a'), expiresAt: n(1) });
      ttlDelete(f.engine, 'Sessions', { pk: s('a') });
      const { rx, api } = await bothWays(f, 'Sessions', arn);
      expect(rx[1]!.userIdentity).toEqual({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
      expect(Object.keys(rx[1]!)).toEqual([
        'eventID',
        'eventName',
        'eventVersion',
        'eventSource',
        'awsRegion',
        'dynamodb',
        'userIdentity',
        'eventSourceARN',
      ]);
      expect(api[1]!.userIdentity).toEqual({ Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' });
    });

    it('leaves INSERT, MODIFY and user deletes without userIdentity', async () => {
      const f = fixture();
      const arn = createTable(f.engine, 'Sessions', 'NEW_AND_OLD_IMAGES').LatestStreamArn as string;
      put(f.engine, 'Sessions', { pk: s('a') });
      put(f.engine, 'Sessions', { pk: s('a'), v: n(1) });
      del(f.engine, 'Sessions', { pk: s('a') });
      const { rx, api } = await bothWays(f, 'Sessions', arn);
      for (const record of [...rx, ...api]) expect(record).not.toHaveProperty('userIdentity');
    });
  });

  it.each([false, true])(
    'gives each reader its own record objects, mutable without effect on others (lazyImages: %s)',
    async (lazyImages) => {
      const f = fixture();
      createTable(f.engine, 'Orders', 'NEW_IMAGE');
      put(f.engine, 'Orders', { pk: s('a'), v: n(1) });
      const read = () =>
        lastValueFrom(
          changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON', follow: false, lazyImages }).pipe(
            toArray(),
          ),
        );
      const [first] = await read();
      expect(JSON.parse(JSON.stringify(first))).toEqual(first);
      const image = first!.dynamodb!.NewImage!;
      expect(first!.dynamodb!.NewImage).toBe(image);
      image.v = { N: '999' };
      first!.dynamodb!.Keys!.pk = { S: 'changed' };
      first!.dynamodb!.NewImage = {};
      expect(first!.dynamodb!.NewImage).toEqual({});
      const [second] = await read();
      expect(second!.dynamodb).toMatchObject({
        Keys: { pk: { S: 'a' } },
        NewImage: { pk: { S: 'a' }, v: { N: '1' } },
      });
      expect(Object.keys(second!.dynamodb!)).toEqual([
        'ApproximateCreationDateTime',
        'Keys',
        'NewImage',
        'SequenceNumber',
        'SizeBytes',
        'StreamViewType',
      ]);
    },
  );
});
