import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeKinesisStreamingDestinationCommand,
  DynamoDBClient,
  EnableKinesisStreamingDestinationCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { eddyServe, listening, stopLeftovers } from '../helpers/eddyProcess.js';
import { KINESIS_CREDENTIALS, type Kinesalite, startKinesalite } from '../helpers/kinesalite.js';
import { keysIn as keysOf, ORDERS_TABLE, startOnDataDir } from './restartHelpers.js';

/**
 * Changes committed to a table with a Kinesis destination but not yet written when eddy stopped
 * are written after the restart with a data directory (docs/kinesis-destinations.md §3.3), at
 * least once: after a clean stop while Kinesis was unreachable, and after a SIGKILL of
 * `eddy serve`. kinesalite (npm) plays Kinesis; records are read back with @aws-sdk/client-kinesis.
 */
let kinesis: Kinesalite;
let directory: string;
beforeAll(async () => {
  kinesis = await startKinesalite();
});
afterAll(() => kinesis.close());
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-kinesis-unsent-'));
});
afterEach(async () => {
  stopLeftovers();
  await kinesis.resume().catch(() => undefined);
  rmSync(directory, { recursive: true, force: true });
});

const keysIn = (stream: string) => keysOf(kinesis, stream);

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

it('writes after a restart what a clean stop left unwritten while Kinesis was unreachable', async () => {
  const streamArn = await kinesis.createStream('clean-stop');
  const start = () => startOnDataDir(directory, kinesis);
  const first = await start();
  const client = first.client();
  await client.send(
    new EnableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: streamArn }),
  );
  await client.send(new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: 'written' } } }));
  await first.settled();
  await kinesis.pause();
  await client.send(new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: 'waiting' } } }));
  await first.close();
  expect(await keysIn('clean-stop')).toEqual(['written']);

  await kinesis.resume();
  const second = await start();
  try {
    await second.settled();
    const again = second.client();
    expect(
      (await again.send(new DescribeKinesisStreamingDestinationCommand({ TableName: 'Orders' })))
        .KinesisDataStreamDestinations,
    ).toEqual([{ StreamArn: streamArn, DestinationStatus: 'ACTIVE' }]);
    await again.send(new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: 'after' } } }));
    await second.settled();
    const keys = await keysIn('clean-stop');
    // At least once, in commit order; 'written' may come twice (same millisecond as the position).
    expect(keys.filter((key) => key !== 'written')).toEqual(['waiting', 'after']);
    expect(keys[0]).toBe('written');
  } finally {
    await second.close();
  }
});

it('writes after a restart what eddy serve had not written when it was killed', async () => {
  const streamArn = await kinesis.createStream('killed');
  const env = {
    EDDY_ARCHIVE_ACCESS_KEY_ID: KINESIS_CREDENTIALS.accessKeyId,
    EDDY_ARCHIVE_SECRET_ACCESS_KEY: KINESIS_CREDENTIALS.secretAccessKey,
  };
  Object.assign(process.env, env);
  const args = [
    '--port',
    '0',
    '--no-config',
    '--data-dir',
    join(directory, 'data'),
    '--durability',
    'always',
    '--kinesis-endpoint',
    kinesis.endpoint,
  ];
  const first = eddyServe(args, directory);
  const url = await listening(first);
  const client = new DynamoDBClient({
    endpoint: url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEDDYTEST', secretAccessKey: 'eddy-test-secret' },
    maxAttempts: 1,
  });
  await client.send(new CreateTableCommand(ORDERS_TABLE));
  await client.send(
    new EnableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: streamArn }),
  );
  await until(
    async () =>
      (await client.send(new DescribeKinesisStreamingDestinationCommand({ TableName: 'Orders' })))
        .KinesisDataStreamDestinations?.[0]?.DestinationStatus === 'ACTIVE',
    'the destination to be ACTIVE',
  );
  await client.send(new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: 'written' } } }));
  await until(async () => (await keysIn('killed')).includes('written'), "'written' in Kinesis");
  await kinesis.pause();
  await client.send(new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: 'waiting' } } }));
  first.child.kill('SIGKILL');
  await first.exited;
  client.destroy();
  expect(await keysIn('killed')).toEqual(['written']);

  await kinesis.resume();
  const second = eddyServe(args, directory);
  await listening(second);
  await until(
    async () => (await keysIn('killed')).includes('waiting'),
    "'waiting' in Kinesis after the restart",
  );
  const keys = await keysIn('killed');
  expect(keys.filter((key) => key === 'waiting')).toHaveLength(1);
  expect(keys[0]).toBe('written');
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
}, 120_000);
