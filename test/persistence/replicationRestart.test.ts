import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EddyProcess, eddyServe, listening, stopLeftovers } from '../helpers/eddyProcess.js';
import { openHost, recordingLogger, tempDir } from './helpers.js';

/**
 * Replicated writes still waiting for the replication lag survive the end of `eddy serve
 * --data-dir` (docs/global-tables.md §7): after a SIGKILL they are sent again from the log at the
 * next start; a clean stop (SIGTERM) delivers them before it exits. A lag of ten minutes keeps
 * every write waiting while the test runs. Real processes, the AWS SDK over HTTP.
 */
let project: { path: string; remove: () => void };
let dataDir: string;
beforeEach(() => {
  project = tempDir('eddy-replication-');
  dataDir = join(project.path, 'data');
  writeFileSync(
    join(project.path, 'eddy.config.mjs'),
    `export default ${JSON.stringify({ tables: [], globalTables: { replicationLag: '10m' } })};\n`,
  );
});
afterEach(() => {
  stopLeftovers();
  project.remove();
});

const credentials = { accessKeyId: 'AKIDEDDYTEST', secretAccessKey: 'eddy-test-secret' };
const clientFor = (endpoint: string, region: string) =>
  new DynamoDBClient({ endpoint, region, credentials, maxAttempts: 1 });

async function serve(): Promise<{ run: EddyProcess; url: string }> {
  const run = eddyServe(['--port', '0', '--data-dir', dataDir, '--durability', 'always'], project.path);
  return { run, url: await listening(run) };
}

const getIn = async (client: DynamoDBClient, pk: string) =>
  (await client.send(new GetItemCommand({ TableName: 'Scores', Key: { pk: { S: pk } } }))).Item;

/** Makes Scores global (us-east-1 and us-west-2), then writes `pk` in the east, left waiting. */
async function writeWaiting(url: string, pk: string): Promise<void> {
  const east = clientFor(url, 'us-east-1');
  const west = clientFor(url, 'us-west-2');
  await east.send(
    new CreateTableCommand({
      TableName: 'Scores',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await east.send(
    new UpdateTableCommand({
      TableName: 'Scores',
      ReplicaUpdates: [{ Create: { RegionName: 'us-west-2' } }],
    }),
  );
  for (let tries = 0; ; tries++) {
    const { Table } = await east.send(new DescribeTableCommand({ TableName: 'Scores' }));
    if (
      Table?.TableStatus === 'ACTIVE' &&
      Table.Replicas?.every((replica) => replica.ReplicaStatus === 'ACTIVE')
    )
      break;
    if (tries > 100) throw new Error('the replica never became ACTIVE');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await east.send(new PutItemCommand({ TableName: 'Scores', Item: { pk: { S: pk }, n: { N: '1' } } }));
  // Waiting for the lag: the replica does not have it yet.
  expect(await getIn(west, pk)).toBeUndefined();
  east.destroy();
  west.destroy();
}

describe('replicated writes waiting for the lag, with eddy serve --data-dir', () => {
  it('are sent again from the log after a kill', async () => {
    const first = await serve();
    await writeWaiting(first.url, 'killed');
    first.run.child.kill('SIGKILL');
    await first.run.exited;

    const second = await serve();
    const west = clientFor(second.url, 'us-west-2');
    let item: Awaited<ReturnType<typeof getIn>>;
    for (let tries = 0; tries < 100 && item === undefined; tries++) {
      item = await getIn(west, 'killed');
      if (item === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(item).toEqual({ pk: { S: 'killed' }, n: { N: '1' } });
    west.destroy();
    second.run.child.kill('SIGTERM');
    expect(await second.run.exited).toBe(0);
  });

  it('are delivered by a clean stop, before it exits', async () => {
    const first = await serve();
    await writeWaiting(first.url, 'stopped');
    first.run.child.kill('SIGTERM');
    expect(await first.run.exited).toBe(0);

    // The log holds the delivery: the next start has nothing to send again.
    const logger = recordingLogger();
    const host = await openHost(dataDir, { logger, start: Date.now() });
    const west = host.engine.execute(
      'GetItem',
      { TableName: 'Scores', Key: { pk: { S: 'stopped' } } },
      { region: 'us-west-2' },
    );
    expect(west.Item).toEqual({ pk: { S: 'stopped' }, n: { N: '1' } });
    expect(logger.lines.map((line) => line.message)).not.toContain(
      'global tables: replicated writes sent again after a restart',
    );
    await host.persistence.close();
  });
});
