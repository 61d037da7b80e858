import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DescribeKinesisStreamingDestinationCommand,
  EnableKinesisStreamingDestinationCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Kinesalite, startKinesalite } from '../helpers/kinesalite.js';
import { keysIn, startOnDataDir } from './restartHelpers.js';

/**
 * With a data directory, a table's Kinesis destination survives a restart and writes the changes
 * committed after it (docs/kinesis-destinations.md §3.3).
 */
let kinesis: Kinesalite;
let directory: string;
beforeAll(async () => {
  kinesis = await startKinesalite();
  directory = mkdtempSync(join(tmpdir(), 'eddy-kinesis-'));
});
afterAll(async () => {
  await kinesis.close();
  rmSync(directory, { recursive: true, force: true });
});

const start = () => startOnDataDir(directory, kinesis);

it('keeps the destination across a restart and writes what is committed after it', async () => {
  const streamArn = await kinesis.createStream('restarted');
  const first = await start();
  const client = first.client();
  await client.send(
    new EnableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: streamArn }),
  );
  await first.settled();
  await client.send(new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: 'before' } } }));
  await first.settled();
  await first.close();

  const second = await start();
  try {
    const again = second.client();
    await second.settled();
    const described = await again.send(
      new DescribeKinesisStreamingDestinationCommand({ TableName: 'Orders' }),
    );
    expect(described.KinesisDataStreamDestinations).toEqual([
      { StreamArn: streamArn, DestinationStatus: 'ACTIVE' },
    ]);
    await again.send(new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: 'after' } } }));
    await second.settled();
    expect(await keysIn(kinesis, 'restarted')).toEqual(['before', 'after']);
  } finally {
    await second.close();
  }
});
