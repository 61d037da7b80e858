// biome-ignore-all lint/suspicious/noTemplateCurlyInString: serverless.yml's variables are ${...}, not JavaScript's.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { startStack, type TestStack } from 'eddy/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadStack } from '../../../infra/stack/sources/index.js';
import { type StackWatcher, watchStack } from '../../../infra/stack/watchStack.js';
import {
  failedPaymentsReachTheDestination,
  placedOrdersAreFiltered,
  type ShopNames,
  theScheduleRuns,
} from './shopApp.js';

// The Serverless Framework fixture (test/fixtures/templates/serverless): the shop as a
// serverless.yml with its variables, stream events, a schedule and resources.Resources.
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'templates', 'serverless');
const NAMES: ShopNames = {
  ordersTable: 'test-orders',
  paymentsTable: 'PaymentsTable',
  onPlacedOrder: 'onPlacedOrder',
  onPayment: 'onPayment',
  nightly: 'shop-test-nightly',
};

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-serverless-'));
  cpSync(FIXTURE, directory, { recursive: true });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A service folder of its own, with the fixture's handlers and this serverless.yml. */
function service(yaml: string, files: Record<string, string> = {}): string {
  const folder = mkdtempSync(join(tmpdir(), 'eddy-sls-'));
  cpSync(join(FIXTURE, 'src'), join(folder, 'src'), { recursive: true });
  writeFileSync(join(folder, 'serverless.yml'), yaml);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const load = (yaml: string, options: { stage?: string; files?: Record<string, string> } = {}) => {
  const folder = service(yaml, options.files);
  folders.push(folder);
  return loadStack({ cwd: folder, ...(options.stage === undefined ? {} : { stage: options.stage }) });
};

describe('a serverless.yml run by startStack({ template, stage })', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ template: 'serverless.yml', baseDirectory: directory, stage: 'test' });
  });
  afterAll(() => stack.close());

  it('runs the filtered stream handler on INSERTs of placed orders only', async () => {
    await placedOrdersAreFiltered(stack, NAMES);
  });

  it('retries a partial batch failure and sends the rest to the on-failure destination', async () => {
    await failedPaymentsReachTheDestination(stack, NAMES);
  });

  it('runs the scheduled function at its rate', async () => {
    await theScheduleRuns(stack, NAMES);
  });

  it('creates resources.Resources tables, named from the variables', async () => {
    const orders = (await stack.client.send(new DescribeTableCommand({ TableName: 'test-orders' }))).Table!;
    expect(orders.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    const payments = (await stack.client.send(new DescribeTableCommand({ TableName: 'PaymentsTable' })))
      .Table!;
    expect(payments.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual(['byStatus']);
  });

  it('gives each function the provider and function settings, Serverless defaults for the rest', () => {
    const onPayment = stack.stack.functions.get('onPayment')!.definition;
    expect(onPayment).toMatchObject({
      timeout: 10,
      memorySize: 256,
      environment: { ORDERS_TABLE: 'test-orders', STAGE: 'test', PAYMENTS_TABLE: 'PaymentsTable' },
    });
    expect(stack.stack.functions.get('shop-test-nightly')!.definition.timeout).toBe(30);
    // The stream event's keys, as the Framework compiles them (BatchSize from ${env:..., 5}).
    const [mapping] = stack.stack.mappings.list({ FunctionName: 'onPayment' }).EventSourceMappings;
    expect(mapping).toMatchObject({
      BatchSize: 5,
      MaximumBatchingWindowInSeconds: 1,
      MaximumRetryAttempts: 1,
      BisectBatchOnFunctionError: false,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: {
        OnFailure: { Destination: 'arn:aws:sqs:us-east-1:000000000000:shop-test-payment-failures' },
      },
    });
  });

  it('keeps the Python function with its mapping disabled', () => {
    const mappings = stack.stack.mappings.list({ FunctionName: 'legacyAudit' }).EventSourceMappings;
    expect(mappings.map((mapping) => mapping.State)).toEqual(['Disabled']);
  });
});

describe('finding and reading a serverless.yml', () => {
  it('is found in the working folder, named with its stage; what eddy does not run is listed', async () => {
    const definition = (await loadStack({ cwd: directory }))!;
    expect(definition.origin).toMatchObject({
      format: 'serverless',
      kind: 'Serverless Framework service, stage dev',
      discovered: true,
    });
    expect(definition.config.tables?.map((table) => table.TableName)).toEqual([
      'dev-orders',
      'PaymentsTable',
    ]);
    expect(Object.keys(definition.config.functions ?? {})).toEqual([
      'onPlacedOrder',
      'onPayment',
      'shop-dev-nightly',
      'legacyAudit',
    ]);
    expect(definition.notices).toContain('ignored: 1 http event');
  });

  it('takes ${opt:stage} from --stage and ${env:...} from the environment', async () => {
    process.env.SHOP_PAYMENT_BATCH_SIZE = '7';
    try {
      const definition = (await loadStack({ cwd: directory, template: 'serverless.yml', stage: 'prod' }))!;
      expect(definition.config.tables?.[0]?.TableName).toBe('prod-orders');
      const events = definition.config.functions?.onPayment?.events ?? [];
      expect(events[0]).toMatchObject({ stream: { table: 'PaymentsTable', BatchSize: 7 } });
    } finally {
      delete process.env.SHOP_PAYMENT_BATCH_SIZE;
    }
  });

  it('compiles every stream event key, the short ARN form and schedules as the Framework does', async () => {
    const definition = (await load(`
service: keys
provider: { name: aws, runtime: nodejs22.x }
functions:
  all:
    handler: src/orders.onPlacedOrder
    events:
      - stream:
          type: dynamodb
          arn: \${self:custom.streamArn}
          batchSize: 100
          batchWindow: 2
          startingPosition: LATEST
          maximumRetryAttempts: 3
          maximumRecordAgeInSeconds: 120
          bisectBatchOnFunctionError: true
          functionResponseType: ReportBatchItemFailures
          parallelizationFactor: 2
          tumblingWindowInSeconds: 30
          filterPatterns:
            - eventName: [MODIFY]
          destinations:
            onFailure: arn:aws:sns:us-east-1:000000000000:alerts
          enabled: false
      - stream: arn:aws:dynamodb:us-east-1:000000000000:table/Things/stream/2026-01-01T00:00:00.000
      - schedule:
          rate: [rate(1 hour), rate(2 hours)]
          enabled: false
          input: { report: hourly }
custom:
  streamArn: arn:aws:dynamodb:us-east-1:000000000000:table/Things/stream/2026-01-01T00:00:00.000
resources:
  Resources:
    Things:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: Things
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
        KeySchema: [{ AttributeName: id, KeyType: HASH }]
        StreamSpecification: { StreamViewType: NEW_IMAGE }
`))!;
    const fn = definition.config.functions?.all;
    expect(fn).toMatchObject({ timeout: 6, memorySize: 1024, runtime: 'nodejs22.x' });
    expect(fn?.events).toEqual([
      {
        stream: {
          table: 'Things',
          StartingPosition: 'LATEST',
          FilterCriteria: { Filters: [{ Pattern: '{"eventName":["MODIFY"]}' }] },
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          BatchSize: 100,
          MaximumBatchingWindowInSeconds: 2,
          MaximumRetryAttempts: 3,
          MaximumRecordAgeInSeconds: 120,
          ParallelizationFactor: 2,
          TumblingWindowInSeconds: 30,
          BisectBatchOnFunctionError: true,
          Enabled: false,
          DestinationConfig: { OnFailure: { Destination: 'arn:aws:sns:us-east-1:000000000000:alerts' } },
        },
      },
      { stream: { table: 'Things', StartingPosition: 'TRIM_HORIZON', BatchSize: 10, Enabled: true } },
      { schedule: { rate: 'rate(1 hour)', Enabled: false, Input: '{"report":"hourly"}' } },
      { schedule: { rate: 'rate(2 hours)', Enabled: false, Input: '{"report":"hourly"}' } },
    ]);
  });

  it('resolves self, nested and file() variables, and leaves CloudFormation ${...} to Fn::Sub', async () => {
    const definition = (await load(
      `
service: vars
provider:
  name: aws
  stage: \${opt:stage, self:custom.defaultStage}
  region: eu-west-1
custom:
  defaultStage: qa
  tables: \${file(./tables.yml)}
  suffix: \${self:custom.tables.\${sls:stage}.suffix}
resources:
  Resources:
    Orders:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: !Sub 'orders-\${AWS::Region}-\${self:custom.suffix}'
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
        KeySchema: [{ AttributeName: id, KeyType: HASH }]
`,
      { files: { 'tables.yml': 'qa:\n  suffix: q-${aws:region}\nprod:\n  suffix: p\n' } },
    ))!;
    expect(definition.config.tables?.[0]?.TableName).toBe('orders-eu-west-1-q-eu-west-1');
    // provider.region is the region eddy serves.
    expect(definition.config.server).toEqual({ region: 'eu-west-1' });
    expect(definition.watchFiles).toHaveLength(2);
  });

  it('refuses variables that refer to each other, naming the chain and the place', async () => {
    await expect(
      load('service: loop\ncustom:\n  a: ${self:custom.b}\n  b: x-${self:custom.a}\n'),
    ).rejects.toThrow(
      /serverless\.yml:3:6 \(custom\.a\): the variables refer to each other in a cycle: custom\.a → custom\.b → custom\.a/,
    );
  });

  it('names a variable with no value, and what to do', async () => {
    await expect(
      load('service: missing\nprovider:\n  environment:\n    KEY: ${env:EDDY_SURELY_UNSET_VARIABLE}\n'),
    ).rejects.toThrow(
      /serverless\.yml:4:10 \(provider\.environment\.KEY\): \$\{env:EDDY_SURELY_UNSET_VARIABLE\} has no value: set the environment variable or give a fallback/,
    );
    await expect(load('service: s\ncustom:\n  key: ${ssm:/shop/key}\n')).rejects.toThrow(
      /\$\{ssm:\/shop\/key\} is read from AWS, which eddy does not: give a fallback/,
    );
  });

  it('points a setting Lambda refuses at its function in serverless.yml', async () => {
    const folder = service(
      (await import('node:fs'))
        .readFileSync(join(FIXTURE, 'serverless.yml'), 'utf8')
        .replace('batchSize: 10', 'batchSize: 20000'),
    );
    folders.push(folder);
    await expect(startStack({ template: folder })).rejects.toThrow(
      /serverless\.yml:23:5 \(functions\.onPlacedOrder\): stream binding on 'dev-orders': .*'20000' at 'batchSize'/,
    );
  });

  it('points a stream of a table the service does not declare at its arn', async () => {
    await expect(
      load(
        'service: s\nfunctions:\n  f:\n    handler: src/orders.onPlacedOrder\n    events:\n      - stream:\n          type: dynamodb\n          arn: !GetAtt Nope.StreamArn\n',
      ),
    ).rejects.toThrow(
      /serverless\.yml:8:24 \(functions\.f\.events\[0\]\.stream\.arn\.Fn::GetAtt\): 'Nope' is not a parameter, a pseudo parameter or a resource/,
    );
  });
});

describe('a serverless.yml changed under --watch', () => {
  it('creates the new table and applies the changed stream settings, keeping the data', async () => {
    const yaml = (batch: number, extra: string) => `
service: live
provider: { name: aws, runtime: nodejs22.x }
functions:
  onPlacedOrder:
    handler: src/orders.onPlacedOrder
    events:
      - stream: { type: dynamodb, arn: !GetAtt Orders.StreamArn, batchSize: ${batch} }
resources:
  Resources:
    Orders:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: orders
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions: [{ AttributeName: orderId, AttributeType: S }]
        KeySchema: [{ AttributeName: orderId, KeyType: HASH }]
        StreamSpecification: { StreamViewType: NEW_IMAGE }
${extra}`;
    const folder = service(yaml(10, ''));
    folders.push(folder);
    const stack = await startStack({ template: folder });
    let watcher: StackWatcher | undefined;
    try {
      const definition = (await loadStack({ cwd: folder }))!;
      let reconciled: (lines: readonly string[]) => void = () => {};
      const next = new Promise<readonly string[]>((resolve) => (reconciled = resolve));
      watcher = watchStack(stack.stack, definition, {
        reload: async () => (await loadStack({ cwd: folder }))!,
        print: () => {},
        cwd: folder,
        debounceMs: 20,
        onReconciled: (lines) => reconciled(lines),
      });
      await stack.client.send(
        new PutItemCommand({ TableName: 'orders', Item: { orderId: { S: 'o-1' }, status: { S: 'placed' } } }),
      );
      await stack.settled();
      writeFileSync(
        join(folder, 'serverless.yml'),
        yaml(
          2,
          `    Returns:
      Type: AWS::DynamoDB::Table
      Properties:
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
        KeySchema: [{ AttributeName: id, KeyType: HASH }]
`,
        ),
      );
      expect(await next).toEqual([
        '+ table Returns',
        '~ onPlacedOrder ← orders stream: BatchSize (from where it stopped)',
      ]);
      const { Table } = await stack.client.send(new DescribeTableCommand({ TableName: 'Returns' }));
      expect(Table?.TableStatus).toBe('ACTIVE');
      expect(stack.stack.mappings.list({ FunctionName: 'onPlacedOrder' }).EventSourceMappings).toMatchObject([
        { BatchSize: 2 },
      ]);
      // The record processed before the change is not sent again; the next ones are.
      await stack.client.send(new PutItemCommand({ TableName: 'orders', Item: { orderId: { S: 'o-2' } } }));
      await stack.settled();
      expect(stack.invocations('onPlacedOrder')).toHaveLength(2);
    } finally {
      watcher?.close();
      await stack.close();
    }
  });
});
