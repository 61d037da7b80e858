import { tmpdir } from 'node:os';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMappingsCommand, formatAge } from '../../infra/cli/commands/mappings.js';
import { bindingUuid } from '../../infra/stack/mappingCheckpoints.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { runCommand } from '../helpers/command.js';
import { ORDERS } from './helpers.js';

// `eddy mappings` against a running eddy (a test stack on a loopback port).
let stack: TestStack;
let url: string;

beforeAll(async () => {
  stack = await startStack(
    {
      tables: [ORDERS, { ...ORDERS, TableName: 'Returns' }],
      functions: {
        onOrder: {
          handler: './unused.ts',
          events: [
            {
              stream: {
                table: 'Orders',
                MaximumRetryAttempts: 0,
                DestinationConfig: { OnFailure: { Destination: 'arn:aws:sqs:us-east-1:000000000000:dlq' } },
              },
            },
            { stream: { table: 'Returns' } },
          ],
        },
      },
    },
    { handlers: { onOrder: async () => undefined } },
  );
  url = (await stack.stack.listen({ port: 0 })).url;
});

afterAll(async () => {
  await stack?.close();
});

const mappings = (...args: string[]) =>
  runCommand(addMappingsCommand, ['mappings', ...args, '--endpoint', url, '--no-config'], tmpdir());

describe('eddy mappings', () => {
  it('lists each mapping with its state, iterator age, last result and destination count', async () => {
    stack.failNext('onOrder', 1);
    await stack.client.send(new PutItemCommand({ TableName: 'Orders', Item: { orderId: { S: 'o-1' } } }));
    await stack.settled();
    const run = await mappings();
    expect(run.code).toBe(0);
    expect(run.out[0]).toMatch(
      /^UUID\s+FUNCTION\s+TABLE\s+STATE\s+ITERATOR AGE\s+LAST RESULT\s+DESTINATIONS$/,
    );
    expect(run.out.slice(1).map((line) => line.split(/\s{2,}/))).toEqual([
      [
        bindingUuid('onOrder', 'Orders'),
        'onOrder',
        'Orders',
        'Enabled',
        '0 ms',
        'PROBLEM: Function call failed',
        '1',
      ],
      [
        bindingUuid('onOrder', 'Returns'),
        'onOrder',
        'Returns',
        'Enabled',
        '0 ms',
        'No records processed',
        '0',
      ],
    ]);
  });

  it('disables and enables a mapping named by FUNCTION:TABLE or UUID', async () => {
    const uuid = bindingUuid('onOrder', 'Returns');
    const disabled = await mappings('disable', 'onOrder:Returns');
    expect(disabled.out).toEqual([`${uuid} onOrder ← Returns stream: Disabling`]);
    expect((await mappings()).out[2]).toContain('Disabled');
    const enabled = await mappings('enable', uuid);
    expect(enabled.out).toEqual([`${uuid} onOrder ← Returns stream: Enabling`]);
  });

  it('asks for FUNCTION:TABLE when a function reads several tables (exit 2)', async () => {
    const run = await mappings('disable', 'onOrder');
    expect(run.code).toBe(2);
    expect(run.err[0]).toBe(
      'eddy mappings: onOrder names 2 mappings: use FUNCTION:TABLE or a UUID (onOrder:Orders, onOrder:Returns)',
    );
  });

  it('says what to do when no eddy answers', async () => {
    const run = await runCommand(
      addMappingsCommand,
      ['mappings', '--endpoint', 'http://127.0.0.1:1', '--no-config'],
      tmpdir(),
    );
    expect(run.code).toBe(1);
    expect(run.err[0]).toMatch(
      /^eddy mappings: nothing answers at http:\/\/127\.0\.0\.1:1 \(start it with `eddy serve`/,
    );
  });

  it('formats ages for people', () => {
    expect([0, 850, 12_345, 240_000, 9_000_000].map(formatAge)).toEqual([
      '0 ms',
      '850 ms',
      '12.3 s',
      '4.0 min',
      '2.5 h',
    ]);
  });
});
