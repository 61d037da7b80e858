import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { startStack, type TestStack } from 'eddy/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStack } from '../../../infra/stack/sources/index.js';
import { synthesizeShop } from '../../fixtures/templates/cdk/app.js';
import {
  failedPaymentsReachTheDestination,
  placedOrdersAreFiltered,
  type ShopNames,
  theScheduleRuns,
} from './shopApp.js';

// The CDK fixture (test/fixtures/templates/cdk/app.ts), synthesized here with aws-cdk-lib: the
// shop's handlers come from the assembly's asset folders (the NodejsFunction bundle as CDK built
// it, the inline function as CloudFormation would write it).
let directory: string;
let assembly: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-cdk-'));
  assembly = synthesizeShop(join(directory, 'cdk.out'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('a CDK cloud assembly run by startStack({ template })', () => {
  let stack: TestStack;
  let names: ShopNames;
  beforeAll(async () => {
    stack = await startStack({ template: directory, baseDirectory: directory });
    const payments = stack.stack.config.tables!.find((table) => table.TableName!.startsWith('Payments'))!;
    const onPayment = Object.keys(stack.stack.config.functions!).find((name) =>
      name.startsWith('OnPayment'),
    )!;
    names = {
      ordersTable: 'cdk-orders',
      paymentsTable: payments.TableName!,
      onPlacedOrder: 'OnPlacedOrder',
      onPayment,
      nightly: 'cdk-nightly',
    };
  });
  afterAll(() => stack.close());

  it('names tables and functions without a physical name after their logical ids', () => {
    expect(names.paymentsTable).toMatch(/^Payments[0-9A-F]{8}$/);
    expect(names.onPayment).toMatch(/^OnPayment[0-9A-F]{8}$/);
  });

  it('runs the filtered stream handler on INSERTs of placed orders only', async () => {
    await placedOrdersAreFiltered(stack, names);
  });

  it('retries a partial batch failure of the NodejsFunction and sends the rest to the queue', async () => {
    await failedPaymentsReachTheDestination(stack, names);
  });

  it('runs the inline function on its EventBridge rule', async () => {
    await theScheduleRuns(stack, names);
  });

  it('keeps the Python function with its mapping disabled', () => {
    const python = Object.keys(stack.stack.config.functions!).find((name) => name.startsWith('LegacyAudit'))!;
    expect(
      stack.stack.mappings.list({ FunctionName: python }).EventSourceMappings.map((m) => m.State),
    ).toEqual(['Disabled']);
  });

  it('creates the tables with their streams and TTL', async () => {
    const orders = (await stack.client.send(new DescribeTableCommand({ TableName: 'cdk-orders' }))).Table!;
    expect(orders.StreamSpecification?.StreamViewType).toBe('NEW_AND_OLD_IMAGES');
    const ttl = await stack.client.send(new DescribeTimeToLiveCommand({ TableName: 'cdk-orders' }));
    expect(ttl.TimeToLiveDescription).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: 'expiresAt' });
  });
});

describe('CDK apps', () => {
  it('lists the roles and permissions CDK adds as ignored, grouped by type', async () => {
    const definition = await loadStack({ cwd: directory, template: assembly });
    expect(definition?.origin.kind).toBe('CDK cloud assembly');
    expect(definition?.notices.find((line) => line.startsWith('ignored:'))).toMatch(/\d+ AWS::IAM::Role/);
  });

  it('runs the app named by cdk.json first with --cdk (no CDK CLI needed)', async () => {
    const app = mkdtempSync(join(tmpdir(), 'eddy-cdk-app-'));
    try {
      // A small app of its own: the test is about running it, the shop is tested above.
      const cdk = pathToFileURL(
        join(import.meta.dirname, '..', '..', '..', 'node_modules', 'aws-cdk-lib', 'index.js'),
      );
      writeFileSync(
        join(app, 'app.mjs'),
        [
          `import { App, Stack, aws_dynamodb as dynamodb } from ${JSON.stringify(cdk.href)};`,
          'const app = new App({ builtinCloudFormationValidation: false });',
          "const stack = new Stack(app, 'Notes', { env: { region: process.env.CDK_DEFAULT_REGION } });",
          "new dynamodb.Table(stack, 'Notes', { tableName: 'notes-' + stack.region, partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });",
          'app.synth();',
        ].join('\n'),
      );
      writeFileSync(join(app, 'cdk.json'), JSON.stringify({ app: 'node app.mjs' }));
      const definition = await loadStack({ cwd: app, cdk: true, region: 'eu-west-1' });
      expect(definition?.origin.file).toBe(join(app, 'cdk.out'));
      // The app saw the region eddy runs in (CDK_DEFAULT_REGION), as `cdk synth` passes the CLI's.
      expect(definition?.config.tables?.map((table) => table.TableName)).toEqual(['notes-eu-west-1']);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });

  it('says to synthesize an app that has no cloud assembly yet', async () => {
    const app = mkdtempSync(join(tmpdir(), 'eddy-cdk-app-'));
    try {
      writeFileSync(join(app, 'cdk.json'), JSON.stringify({ app: 'node app.js' }));
      await expect(loadStack({ cwd: app })).rejects.toThrow(/run `cdk synth`, or pass --cdk/);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});
