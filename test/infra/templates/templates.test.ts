import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { startStack } from 'eddy/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseYamlTemplate } from '../../../infra/stack/sources/cloudformation/templateFile.js';
import { loadStack } from '../../../infra/stack/sources/index.js';

// The loader's reading of each resource type eddy runs, what it ignores, and where its errors point.
const SAM_FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'templates', 'sam');
let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-templates-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A folder holding `files` (name → text). */
function project(files: Record<string, string>): string {
  const folder = mkdtempSync(join(directory, 'project-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  return folder;
}

const HANDLER =
  'export const handler = async (event) => ({ got: event.Records?.length ?? event["detail-type"] });\n';

describe('DynamoDB tables', () => {
  it('creates an AWS::DynamoDB::Table with every property eddy supports', async () => {
    const cwd = project({
      'template.yaml': `
Resources:
  Sessions:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: sessions
      BillingMode: PROVISIONED
      ProvisionedThroughput: { ReadCapacityUnits: "4", WriteCapacityUnits: 2 }
      AttributeDefinitions:
        - { AttributeName: pk, AttributeType: S }
        - { AttributeName: sk, AttributeType: N }
        - { AttributeName: user, AttributeType: S }
      KeySchema: [{ AttributeName: pk, KeyType: HASH }, { AttributeName: sk, KeyType: RANGE }]
      GlobalSecondaryIndexes:
        - IndexName: byUser
          KeySchema: [{ AttributeName: user, KeyType: HASH }]
          Projection: { ProjectionType: INCLUDE, NonKeyAttributes: [expiresAt] }
          ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 }
          ContributorInsightsSpecification: { Enabled: true }
      LocalSecondaryIndexes:
        - IndexName: byPkUser
          KeySchema: [{ AttributeName: pk, KeyType: HASH }, { AttributeName: user, KeyType: RANGE }]
          Projection: { ProjectionType: KEYS_ONLY }
      StreamSpecification: { StreamViewType: KEYS_ONLY }
      TimeToLiveSpecification: { AttributeName: expiresAt, Enabled: "true" }
      SSESpecification: { SSEEnabled: true, SSEType: KMS, KMSMasterKeyId: alias/sessions }
      DeletionProtectionEnabled: true
      TableClass: STANDARD_INFREQUENT_ACCESS
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true }
      Tags: [{ Key: team, Value: identity }]
      ResourcePolicy:
        PolicyDocument:
          Version: '2012-10-17'
          Statement: [{ Effect: Allow, Principal: { AWS: 'arn:aws:iam::000000000000:root' }, Action: 'dynamodb:GetItem', Resource: '*' }]
`,
    });
    const stack = await startStack({ template: 'template.yaml', baseDirectory: cwd });
    try {
      const table = (await stack.client.send(new DescribeTableCommand({ TableName: 'sessions' }))).Table!;
      expect(table.KeySchema).toEqual([
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ]);
      expect(table.ProvisionedThroughput).toMatchObject({ ReadCapacityUnits: 4, WriteCapacityUnits: 2 });
      expect(table.GlobalSecondaryIndexes?.[0]).toMatchObject({
        IndexName: 'byUser',
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['expiresAt'] },
      });
      expect(table.LocalSecondaryIndexes?.[0]?.IndexName).toBe('byPkUser');
      expect(table.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'KEYS_ONLY' });
      expect(table.SSEDescription).toMatchObject({ Status: 'ENABLED', SSEType: 'KMS' });
      expect(table.DeletionProtectionEnabled).toBe(true);
      expect(table.TableClassSummary?.TableClass).toBe('STANDARD_INFREQUENT_ACCESS');
      const engineTable = stack.engine.region().tables.get('sessions')!;
      expect(engineTable.tags.get('team')).toBe('identity');
    } finally {
      await stack.close();
    }
  });

  it('takes an AWS::DynamoDB::GlobalTable’s replicas (the local one as the table, the others in their regions), and AWS::Serverless::SimpleTable', async () => {
    const template = `
Transform: AWS::Serverless-2016-10-31
Globals:
  SimpleTable:
    SSESpecification: { SSEEnabled: true }
Resources:
  Accounts:
    Type: AWS::DynamoDB::GlobalTable
    Properties:
      TableName: accounts
      BillingMode: PROVISIONED
      AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
      KeySchema: [{ AttributeName: id, KeyType: HASH }]
      StreamSpecification: { StreamViewType: NEW_AND_OLD_IMAGES }
      WriteProvisionedThroughputSettings:
        WriteCapacityAutoScalingSettings: { MinCapacity: 3, MaxCapacity: 10, TargetTrackingScalingPolicyConfiguration: { TargetValue: 70 } }
      Replicas:
        - Region: us-east-1
          ReadProvisionedThroughputSettings: { ReadCapacityUnits: 9 }
        - Region: !Ref AWS::Region
          TableClass: STANDARD_INFREQUENT_ACCESS
          DeletionProtectionEnabled: true
          ReadProvisionedThroughputSettings: { ReadCapacityUnits: 5 }
          Tags: [{ Key: replica, Value: local }]
  Counters:
    Type: AWS::Serverless::SimpleTable
    Properties:
      PrimaryKey: { Name: counter, Type: Number }
`;
    const cwd = project({ 'template.yaml': template });
    const stack = await startStack({ template: 'template.yaml', baseDirectory: cwd, region: 'eu-central-1' });
    try {
      const accounts = (await stack.client.send(new DescribeTableCommand({ TableName: 'accounts' }))).Table!;
      expect(accounts.ProvisionedThroughput).toMatchObject({ ReadCapacityUnits: 5, WriteCapacityUnits: 3 });
      expect(accounts.TableClassSummary?.TableClass).toBe('STANDARD_INFREQUENT_ACCESS');
      expect(accounts.DeletionProtectionEnabled).toBe(true);
      expect(accounts.TableArn).toBe('arn:aws:dynamodb:eu-central-1:000000000000:table/accounts');
      // The other replicas are made in their regions of the same eddy (docs/global-tables.md §1).
      expect(accounts.GlobalTableVersion).toBe('2019.11.21');
      expect(accounts.Replicas).toEqual([
        { RegionName: 'eu-central-1', ReplicaStatus: 'ACTIVE' },
        {
          RegionName: 'us-east-1',
          ReplicaStatus: 'ACTIVE',
          ProvisionedThroughputOverride: { ReadCapacityUnits: 9 },
        },
      ]);
      const east = stack.regionClient('us-east-1');
      const replica = (await east.send(new DescribeTableCommand({ TableName: 'accounts' }))).Table!;
      expect(replica.TableArn).toBe('arn:aws:dynamodb:us-east-1:000000000000:table/accounts');
      expect(replica.ProvisionedThroughput).toMatchObject({ ReadCapacityUnits: 9, WriteCapacityUnits: 3 });
      await stack.client.send(new PutItemCommand({ TableName: 'accounts', Item: { id: { S: 'a-1' } } }));
      await stack.settled();
      const copied = await east.send(
        new GetItemCommand({ TableName: 'accounts', Key: { id: { S: 'a-1' } } }),
      );
      expect(copied.Item).toEqual({ id: { S: 'a-1' } });
      const counters = (await stack.client.send(new DescribeTableCommand({ TableName: 'Counters' }))).Table!;
      expect(counters.AttributeDefinitions).toEqual([{ AttributeName: 'counter', AttributeType: 'N' }]);
      expect(counters.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
      expect(counters.SSEDescription?.Status).toBe('ENABLED');
    } finally {
      await stack.close();
    }
    const elsewhere = project({ 'template.yaml': template.replace('!Ref AWS::Region', 'eu-west-1') });
    await expect(loadStack({ cwd: elsewhere, region: 'ap-south-1' })).rejects.toThrow(
      /\(Resources\.Accounts\.Properties\.Replicas\): no replica in ap-south-1, the local region \(replicas: us-east-1, eu-west-1\)/,
    );
  });
});

describe('AWS::Lambda::Function, AWS::Lambda::EventSourceMapping, AWS::Events::Rule, AWS::Scheduler::Schedule', () => {
  // A plain CloudFormation template in JSON: inline code, code from a local folder, a mapping, two schedules.
  const template = {
    AWSTemplateFormatVersion: '2010-09-09',
    Resources: {
      Notes: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
        },
      },
      Indexer: {
        Type: 'AWS::Lambda::Function',
        Properties: {
          Runtime: 'nodejs22.x',
          Handler: 'lib/indexer.handler',
          Code: './code',
          Timeout: 7,
          MemorySize: 512,
          Environment: { Variables: { NOTES: { Ref: 'Notes' }, LIMIT: 5 } },
        },
      },
      Tick: {
        Type: 'AWS::Lambda::Function',
        Properties: {
          FunctionName: 'tick',
          Runtime: 'nodejs20.x',
          Handler: 'index.handler',
          Code: { ZipFile: "exports.handler = async (event) => event['detail-type'];" },
        },
      },
      IndexerMapping: {
        Type: 'AWS::Lambda::EventSourceMapping',
        Properties: {
          FunctionName: { 'Fn::GetAtt': ['Indexer', 'Arn'] },
          EventSourceArn: { 'Fn::GetAtt': ['Notes', 'StreamArn'] },
          StartingPosition: 'TRIM_HORIZON',
          BatchSize: 2,
          MaximumRetryAttempts: 0,
          TumblingWindowInSeconds: 0,
          ParallelizationFactor: 1,
          MaximumRecordAgeInSeconds: -1,
        },
      },
      EveryMinute: {
        Type: 'AWS::Events::Rule',
        Properties: {
          ScheduleExpression: 'rate(1 minute)',
          Targets: [{ Id: 'tick', Arn: { 'Fn::GetAtt': ['Tick', 'Arn'] } }],
        },
      },
      EveryHour: {
        Type: 'AWS::Scheduler::Schedule',
        Properties: {
          ScheduleExpression: 'rate(1 hour)',
          State: 'DISABLED',
          FlexibleTimeWindow: { Mode: 'OFF' },
          Target: { Arn: { 'Fn::GetAtt': ['Tick', 'Arn'] }, RoleArn: 'arn:aws:iam::000000000000:role/x' },
        },
      },
      OnNoteChange: {
        Type: 'AWS::Events::Rule',
        Properties: {
          EventPattern: { source: ['notes'] },
          Targets: [{ Id: 't', Arn: { 'Fn::GetAtt': ['Tick', 'Arn'] } }],
        },
      },
    },
  };

  it('runs them', async () => {
    const cwd = project({ 'stack.json': JSON.stringify(template, null, 2), 'code/lib/indexer.mjs': HANDLER });
    const stack = await startStack({ template: 'stack.json', baseDirectory: cwd });
    try {
      for (const id of ['a', 'b', 'c'])
        await stack.client.send(new PutItemCommand({ TableName: 'Notes', Item: { id: { S: id } } }));
      await stack.settled();
      const sizes = stack
        .invocations('Indexer')
        .map((invocation) => (invocation.event as { Records: unknown[] }).Records.length);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(3);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(2);
      const indexer = stack.stack.functions.get('Indexer')!.definition;
      expect(indexer).toMatchObject({
        timeout: 7,
        memorySize: 512,
        environment: { NOTES: 'Notes', LIMIT: '5' },
      });
      await stack.advance('1m');
      expect(stack.invocations('tick').map((invocation) => invocation.result)).toEqual(['Scheduled Event']);
    } finally {
      await stack.close();
    }
  });

  it('lists what it does not run, once, grouped by type', async () => {
    const cwd = project({ 'stack.json': JSON.stringify(template), 'code/lib/indexer.mjs': HANDLER });
    const definition = await loadStack({ cwd, template: 'stack.json' });
    expect(definition?.config.functions?.tick?.events).toEqual([
      { schedule: { rate: 'rate(1 minute)', Enabled: true } },
      { schedule: { rate: 'rate(1 hour)', Enabled: false } },
    ]);
    expect(definition?.notices).toEqual(['ignored: 1 AWS::Events::Rule (event pattern)']);
  });
});

describe('errors point into the template', () => {
  it('a JSON template by JSON pointer', async () => {
    const cwd = project({
      'template.json': JSON.stringify({
        Resources: {
          Fn: {
            Type: 'AWS::Lambda::Function',
            Properties: { Runtime: 'nodejs22.x', Handler: 'index.handler', Code: './missing' },
          },
        },
      }),
    });
    await expect(loadStack({ cwd, template: 'template.json' })).rejects.toThrow(
      `Bad template ${join(cwd, 'template.json')}#/Resources/Fn/Properties/Code: the code folder ${join(cwd, 'missing')} does not exist`,
    );
  });

  it('a YAML template by line and column', async () => {
    const cwd = project({
      'template.yaml':
        'Resources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties:\n      Runtime: nodejs22.x\n      Handler: app.handler\n',
    });
    await expect(loadStack({ cwd })).rejects.toThrow(
      `Bad template ${join(cwd, 'template.yaml')}:6:16 (Resources.Fn.Properties.Handler): no module app (.js, .mjs, .cjs, or .ts) in ${cwd} for Handler 'app.handler'`,
    );
  });

  it('a table the engine refuses, at its resource', async () => {
    const cwd = project({
      'template.yaml': [
        'Resources:',
        '  Broken:',
        '    Type: AWS::DynamoDB::Table',
        '    Properties:',
        '      BillingMode: PAY_PER_REQUEST',
        '      AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]',
        '      KeySchema: [{ AttributeName: other, KeyType: HASH }]',
      ].join('\n'),
    });
    await expect(startStack({ template: cwd })).rejects.toThrow(
      /template\.yaml:3:5 \(Resources\.Broken\): CreateTable of table 'Broken' failed: ValidationException/,
    );
  });

  it('a nested stack, naming the resource', async () => {
    const cwd = project({
      'template.yaml':
        'Resources:\n  Shared:\n    Type: AWS::CloudFormation::Stack\n    Properties: { TemplateURL: ./shared.yaml }\n',
    });
    await expect(loadStack({ cwd })).rejects.toThrow(
      /\(Resources\.Shared\.Type\): AWS::CloudFormation::Stack is a nested stack/,
    );
  });

  it('an override the template does not declare', async () => {
    await expect(loadStack({ cwd: SAM_FIXTURE, parameters: { Stage: 'x' } })).rejects.toThrow(
      /--parameter-overrides names Stage, which the template does not declare \(Parameters: Env, PaymentBatchSize\)/,
    );
  });
});

describe('finding the stack', () => {
  it('takes template.yaml in the working folder and says so', async () => {
    const definition = await loadStack({ cwd: SAM_FIXTURE, workDirectory: join(directory, 'work') });
    expect(definition?.origin).toEqual({
      format: 'cloudformation',
      file: join(SAM_FIXTURE, 'template.yaml'),
      kind: 'SAM template',
      discovered: true,
    });
  });

  it('prefers eddy.config.* and takes a folder given with --template', async () => {
    const cwd = project({ 'eddy.config.json': '{ "tables": [] }' });
    cpSync(join(SAM_FIXTURE, 'template.yaml'), join(cwd, 'template.yaml'));
    cpSync(join(SAM_FIXTURE, 'src'), join(cwd, 'src'), { recursive: true });
    expect((await loadStack({ cwd }))?.origin.format).toBe('eddy-config');
    expect((await loadStack({ cwd, template: '.' }))?.origin.format).toBe('cloudformation');
    expect(await loadStack({ cwd, config: false })).toBeUndefined();
  });

  it('reads the same stack from the template in JSON', async () => {
    const cwd = project({});
    cpSync(join(SAM_FIXTURE, 'src'), join(cwd, 'src'), { recursive: true });
    const { template } = parseYamlTemplate('t', readFileSync(join(SAM_FIXTURE, 'template.yaml'), 'utf8'));
    writeFileSync(join(cwd, 'template.json'), JSON.stringify(template, null, 2));
    cpSync(join(SAM_FIXTURE, 'template.yaml'), join(cwd, 'template.yaml'));
    const fromYaml = await loadStack({ cwd, template: 'template.yaml' });
    const fromJson = await loadStack({ cwd, template: 'template.json' });
    expect(fromJson?.config).toEqual(fromYaml?.config);
  });
});

describe('SAM schedules', () => {
  it('reads Schedule and ScheduleV2 rates, cron expressions and time zones, and honours their state', async () => {
    const cwd = project({
      'template.yaml': `
Transform: AWS::Serverless-2016-10-31
Resources:
  Report:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: nodejs22.x
      Handler: report.handler
      Events:
        Hourly: { Type: ScheduleV2, Properties: { ScheduleExpression: rate(1 hour), FlexibleTimeWindow: { Mode: 'OFF' } } }
        Paused: { Type: Schedule, Properties: { Schedule: rate(2 hours), State: DISABLED } }
        Nightly: { Type: ScheduleV2, Properties: { ScheduleExpression: 'cron(0 2 * * ? *)', ScheduleExpressionTimezone: Europe/Paris } }
`,
      'report.mjs': HANDLER,
    });
    const definition = await loadStack({ cwd });
    expect(definition?.config.functions?.Report?.events).toEqual([
      { schedule: { rate: 'rate(1 hour)', Enabled: true } },
      { schedule: { rate: 'rate(2 hours)', Enabled: false } },
      { schedule: { rate: 'cron(0 2 * * ? *)', Enabled: true, Timezone: 'Europe/Paris' } },
    ]);
    expect(definition?.notices).toEqual([]);
  });
});
