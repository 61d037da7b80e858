import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeTableCommand, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemSize } from '../../core/model/itemSize.js';
import type { EddyConfig, TableConfig } from '../../infra/config.js';
import { wireMap } from '../../infra/replay/wireAttributes.js';
import {
  eddy,
  ORDERS,
  readLines,
  removeTempDirs,
  type Served,
  serveStack,
  tempDir,
  writeOrders,
} from './helpers.js';

// `eddy event dynamodb` against a real eddy over loopback HTTP.

const HANDLERS = join(import.meta.dirname, 'fixtures', 'handlers.mjs');
let served: Served;
let directory: string;
let streamArn: string;

const MESSAGES: TableConfig = {
  TableName: 'Messages',
  AttributeDefinitions: [{ AttributeName: 'Id', AttributeType: 'N' }],
  KeySchema: [{ AttributeName: 'Id', KeyType: 'HASH' }],
  BillingMode: 'PAY_PER_REQUEST',
};

beforeAll(async () => {
  directory = tempDir('event');
  served = await serveStack({ tables: [ORDERS, MESSAGES] });
  await writeOrders(served.stack);
  const client = served.stack.client();
  // The item of AWS's own example event (docs/streams-and-lambda.md §1.2.7: 26 bytes with its keys).
  await client.send(
    new PutItemCommand({ TableName: 'Messages', Item: { Id: { N: '101' }, Message: { S: 'New item!' } } }),
  );
  streamArn = (await client.send(new DescribeTableCommand({ TableName: 'Orders' }))).Table!.LatestStreamArn!;
  client.destroy();
});

afterAll(async () => {
  await served.stack.close();
  removeTempDirs();
});

async function generate(...args: string[]): Promise<DynamoDBStreamEvent> {
  const run = await eddy(directory, 'event', 'dynamodb', '--endpoint', served.url, ...args);
  expect(run.code).toBe(0);
  return JSON.parse(run.out.join('\n')) as DynamoDBStreamEvent;
}

async function scanned(tableName: string) {
  const client = served.stack.client();
  const { Items } = await client.send(new ScanCommand({ TableName: tableName }));
  client.destroy();
  return (Items ?? []).map((item) => JSON.parse(JSON.stringify(wireMap(item))));
}

describe('eddy event dynamodb', () => {
  it("makes an INSERT per item, with the table's keys, stream ARN and item sizes", async () => {
    const event = await generate('--table', 'Orders');
    const items = await scanned('Orders');
    expect(event.Records).toHaveLength(items.length);
    event.Records.forEach((record: DynamoDBRecord, index) => {
      const item = items[index];
      expect(Object.keys(record)).toEqual([
        'eventID',
        'eventName',
        'eventVersion',
        'eventSource',
        'awsRegion',
        'dynamodb',
        'eventSourceARN',
      ]);
      expect(record).toMatchObject({
        eventName: 'INSERT',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: 'us-east-1',
        eventSourceARN: streamArn,
      });
      expect(record.eventID).toMatch(/^[0-9a-f]{32}$/);
      const body = record.dynamodb!;
      expect(body.Keys).toEqual({ pk: item.pk, sk: item.sk });
      expect(body.NewImage).toEqual(item);
      expect(body.OldImage).toBeUndefined();
      expect(body.StreamViewType).toBe('NEW_AND_OLD_IMAGES');
      expect(body.SequenceNumber).toMatch(/^\d{21}$/);
      expect(body.SizeBytes).toBe(itemSize(body.Keys as never) + itemSize(item));
    });
    const sequences = event.Records.map((record) => BigInt(record.dynamodb!.SequenceNumber!));
    expect([...sequences].sort((a, b) => (a < b ? -1 : 1))).toEqual(sequences);
  });

  it('matches the SizeBytes of AWS example records, and shapes MODIFY and REMOVE images by view type', async () => {
    const insert = await generate('--table', 'Messages');
    expect(insert.Records[0]!.dynamodb!.SizeBytes).toBe(26);
    const modify = await generate('--table', 'Orders', '--event-name', 'MODIFY', '--limit', '2');
    expect(modify.Records).toHaveLength(2);
    for (const record of modify.Records) expect(record.dynamodb!.OldImage).toEqual(record.dynamodb!.Keys);
    const remove = await generate('--table', 'Orders', '--event-name', 'REMOVE', '--view-type', 'KEYS_ONLY');
    for (const record of remove.Records) {
      expect(record.dynamodb!.NewImage).toBeUndefined();
      expect(record.dynamodb!.OldImage).toBeUndefined();
      expect(record.dynamodb!.SizeBytes).toBe(itemSize(record.dynamodb!.Keys as never));
    }
  });

  it('writes a file that `eddy invoke --events` replays through the function', async () => {
    const run = await eddy(
      directory,
      'event',
      'dynamodb',
      '-t',
      'Orders',
      '--out',
      'sample.json',
      '--endpoint',
      served.url,
    );
    expect(run).toMatchObject({ code: 0, out: [], err: ['4 INSERT records from Orders'] });
    const seen = join(directory, 'seen.jsonl');
    const config: EddyConfig = {
      tables: [ORDERS],
      functions: {
        onOrder: {
          handler: HANDLERS,
          environment: { SEEN_FILE: seen, FAIL_ONCE_PK: 'none' },
          events: [{ stream: { table: 'Orders', BatchSize: 3 } }],
        },
      },
    };
    writeFileSync(join(directory, 'eddy.config.json'), JSON.stringify(config));
    const invoked = await eddy(directory, 'invoke', 'onOrder', '--events', 'sample.json');
    expect(invoked.code).toBe(0);
    expect(invoked.out).toContain('4 records: 0 filtered, 4 processed, 0 failed');
    const received = readLines<DynamoDBStreamEvent>(seen).flatMap((event) => event.Records);
    expect(received.map((record) => record.dynamodb!.NewImage)).toEqual(
      expect.arrayContaining((await scanned('Orders')).map((item) => expect.objectContaining(item))),
    );
  });

  it('reports a table that does not exist', async () => {
    const run = await eddy(directory, 'event', 'dynamodb', '--table', 'Nope', '--endpoint', served.url);
    expect(run.code).toBe(1);
    expect(run.err[0]).toMatch(/^eddy event dynamodb: .*Nope/);
  });
});
