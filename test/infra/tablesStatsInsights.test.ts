import { tmpdir } from 'node:os';
import { GetItemCommand, PutItemCommand, UpdateContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { addTablesCommand } from '../../infra/cli/commands/tables.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { runCommand } from '../helpers/command.js';

/**
 * `eddy tables stats` shows the most accessed partition keys of the tables with Contributor
 * Insights on (docs/contributor-insights-and-endpoints.md §2.3), from eddy's own traffic sent
 * with the AWS SDK over HTTP.
 */
let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('eddy tables stats', () => {
  it('prints the most accessed keys of a table with Contributor Insights on, most first', async () => {
    stack = await startStack(
      {
        tables: [
          {
            TableName: 'Orders',
            AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
            KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
            BillingMode: 'PAY_PER_REQUEST',
          },
        ],
      },
      { endpoint: true },
    );
    await stack.client.send(
      new UpdateContributorInsightsCommand({ TableName: 'Orders', ContributorInsightsAction: 'ENABLE' }),
    );
    for (const id of ['hot', 'warm', 'hot', 'hot', 'warm', 'cold'])
      await stack.client.send(new PutItemCommand({ TableName: 'Orders', Item: { id: { S: id } } }));
    await stack.client.send(new GetItemCommand({ TableName: 'Orders', Key: { id: { S: 'hot' } } }));

    const run = await runCommand(
      addTablesCommand,
      ['tables', 'stats', '--endpoint', stack.endpoint!],
      tmpdir(),
    );
    expect(run.code).toBe(0);
    const header = run.out.findIndex((line) => /^TABLE\s+INDEX\s+STATUS\s+MOST ACCESSED/.test(line));
    expect(header).toBeGreaterThan(0);
    expect(run.out[header + 1]).toMatch(/^Orders\s+-\s+ENABLED\s+hot \(4\), warm \(2\), cold \(1\)\s+-$/);
  });
});
