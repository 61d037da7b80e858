import { tmpdir } from 'node:os';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { addTablesCommand } from '../../infra/cli/commands/tables.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { runCommand } from '../helpers/command.js';

/**
 * CloudWatch-style figures (docs/capacity.md §7): `GET /_eddy/metrics` and `eddy tables stats`,
 * named after DynamoDB's metrics (ConsumedWriteCapacityUnits, WriteThrottleEvents:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html).
 */
let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('capacity figures', () => {
  it('are served on /_eddy/metrics and printed by eddy tables stats', async () => {
    stack = await startStack(
      {
        tables: [
          {
            TableName: 'Orders',
            AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
            KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
            ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 2 },
          },
        ],
      },
      { endpoint: true, capacity: { mode: 'enforce', burstSeconds: 0 } },
    );
    for (const id of ['a', 'b'])
      await stack.client.send(new PutItemCommand({ TableName: 'Orders', Item: { id: { S: id } } }));
    stack.throttleNext('Orders', 1);
    await stack.client.send(new PutItemCommand({ TableName: 'Orders', Item: { id: { S: 'c' } } }));

    const response = await fetch(new URL('/_eddy/metrics', stack.endpoint));
    expect(response.status).toBe(200);
    const { Tables } = (await response.json()) as { Tables: Record<string, unknown>[] };
    expect(Tables).toEqual([
      expect.objectContaining({ table: 'Orders', consumedWriteCapacityUnits: 3, writeThrottleEvents: 1 }),
    ]);

    const run = await runCommand(
      addTablesCommand,
      ['tables', 'stats', '--endpoint', stack.endpoint!],
      tmpdir(),
    );
    expect(run.code).toBe(0);
    expect(run.out[0]).toMatch(
      /^TABLE\s+INDEX\s+READ UNITS\s+WRITE UNITS\s+READ THROTTLES\s+WRITE THROTTLES/,
    );
    expect(run.out[1]).toMatch(/^Orders\s+-\s+0\s+3\s+0\s+1\s+/);
  });
});
