import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TTL_DELETE_FILTER_CRITERIA, TTL_PRINCIPAL_ID } from '../../functions/archiver/handler.js';
import { ARCHIVER_MAPPING_SETTINGS } from '../../functions/archiver/settings.js';
import { bindingsOf } from '../../infra/bindings.js';
import { addSynthCommand } from '../../infra/cli/commands/synth.js';
import { loadConfig } from '../../infra/cli/loadConfig.js';
import type { EddyConfig } from '../../infra/config.js';
import {
  DEFAULT_RUNTIME,
  LogicalIds,
  NOT_DEPLOYED,
  renderTemplate,
  type SamTemplate,
  STREAM_EVENT_SETTINGS,
  SynthError,
  synthesize,
  tableResource,
} from '../../infra/synth/index.js';
import { runCommand } from '../helpers/command.js';

// `eddy synth` through its command on the votes example, and the builders on an inline config
// with what the example lacks (schedules, indexes, provisioned throughput, SNS/S3/real destinations).
const ROOT = join(import.meta.dirname, '..', '..');
const VOTES_DIR = join(ROOT, 'examples', 'votes');
const VOTES_CONFIG = join(VOTES_DIR, 'eddy.config.ts');
const directory = mkdtempSync(join(tmpdir(), 'eddy-synth-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** cfn-lint validates templates (the SAM transform included) when installed: `which` finds it. */
const CFN_LINT = spawnSync('which', ['cfn-lint']).status === 0;

const synth = (...args: string[]) => runCommand(addSynthCommand, ['synth', ...args], directory);

interface SamEventShape {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
}
interface FunctionShape {
  readonly CodeUri: string;
  readonly Handler: string;
  readonly Runtime: string;
  readonly Timeout: number;
  readonly MemorySize: number;
  readonly Description: string;
  readonly Environment?: { readonly Variables: Record<string, unknown> };
  readonly Policies: unknown[];
  readonly Events: Record<string, SamEventShape>;
}

const resourcesOfType = (template: SamTemplate, type: string) =>
  Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
const functionOf = (template: SamTemplate, logicalId: string) => {
  const resource = template.Resources[logicalId];
  expect(resource?.Type).toBe('AWS::Serverless::Function');
  return resource!.Properties as unknown as FunctionShape;
};
const tableIdOf = (template: SamTemplate, tableName: string) =>
  resourcesOfType(template, 'AWS::DynamoDB::Table').find(
    ([, table]) => table.Properties?.TableName === tableName,
  )?.[0];
const streamEventsOn = (fn: FunctionShape, tableId: string) =>
  Object.values(fn.Events).filter(
    (event) =>
      event.Type === 'DynamoDB' &&
      JSON.stringify(event.Properties.Stream) === JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] }),
  );
const statementsOf = (fn: FunctionShape) =>
  fn.Policies.flatMap((policy) => (policy as { Statement?: unknown[] }).Statement ?? []);

/** Logical ids a value refers to: Ref, Fn::GetAtt and ${Id.Attr} inside Fn::Sub. */
function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  if (typeof record.Ref === 'string') return [record.Ref];
  if (Array.isArray(record['Fn::GetAtt'])) return [record['Fn::GetAtt'][0] as string];
  if (typeof record['Fn::Sub'] === 'string')
    return [...record['Fn::Sub'].matchAll(/\$\{([A-Za-z0-9]+)[.}]/g)].map((match) => match[1]!);
  return Object.values(record).flatMap(referencesIn);
}

describe('eddy synth on examples/votes', () => {
  let config: EddyConfig;
  let template: SamTemplate;
  let yamlText: string;
  let run: Awaited<ReturnType<typeof synth>>;

  beforeAll(async () => {
    config = await loadConfig(VOTES_CONFIG);
    run = await synth('--config', VOTES_CONFIG, '--out', 'votes/template.yaml', '--build-dir', 'dist');
    yamlText = readFileSync(join(directory, 'votes', 'template.yaml'), 'utf8');
    template = parse(yamlText) as SamTemplate;
  });

  it('writes a SAM template, and warns on stderr about what deploys differently', () => {
    expect(run.code).toBe(0);
    expect(run.out).toEqual(['wrote votes/template.yaml (yaml, 6 resources)']);
    expect(run.err).toEqual([
      expect.stringMatching(
        /^eddy synth: warning: archive\.sink is a directory \(\.eddy\/archive\).+S3 bucket ArchiveBucket/,
      ),
      'eddy synth: warning: not built yet: dist/functions/tally.zip, dist/functions/archiver.zip (run eddy build)',
    ]);
    expect(template).toMatchObject({
      AWSTemplateFormatVersion: '2010-09-09',
      Transform: 'AWS::Serverless-2016-10-31',
    });
    expect(yamlText).toContain('AWSTemplateFormatVersion: "2010-09-09"');
  });

  it('declares every table with the same keys, billing mode, stream and TTL, retained on deletion', () => {
    for (const table of config.tables!) {
      const id = tableIdOf(template, table.TableName!);
      expect(id, table.TableName).toBeDefined();
      const resource = template.Resources[id!]!;
      expect(resource).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
      expect(resource.Properties).toEqual({
        TableName: table.TableName,
        KeySchema: table.KeySchema,
        AttributeDefinitions: table.AttributeDefinitions,
        BillingMode: table.BillingMode,
        StreamSpecification: { StreamViewType: table.StreamSpecification!.StreamViewType },
        ...(table.TimeToLiveSpecification ? { TimeToLiveSpecification: table.TimeToLiveSpecification } : {}),
      });
    }
    expect(resourcesOfType(template, 'AWS::DynamoDB::Table')).toHaveLength(config.tables!.length);
  });

  it("gives every stream binding exactly one DynamoDB event on its table's stream, with the config's settings", () => {
    const bindings = bindingsOf(config, VOTES_DIR);
    expect(bindings.flatMap((binding) => binding.streams)).toHaveLength(1);
    for (const binding of bindings) {
      const fn = functionOf(template, 'TallyFunction');
      for (const { table, settings } of binding.streams) {
        const events = streamEventsOn(fn, tableIdOf(template, table)!);
        expect(events).toHaveLength(1);
        const { DestinationConfig: _, ...rest } = settings;
        expect(events[0]!.Properties).toMatchObject(rest);
        expect(events[0]!.Properties.FilterCriteria).toEqual(settings.FilterCriteria);
      }
    }
  });

  it('creates the placeholder queue of tally failures and lets tally send to it, and CRUD on the tables', () => {
    const fn = functionOf(template, 'TallyFunction');
    const queueArn = { 'Fn::GetAtt': ['TallyFailuresQueue', 'Arn'] };
    expect(template.Resources.TallyFailuresQueue?.Type).toBe('AWS::SQS::Queue');
    expect(fn.Events.VotesStream!.Properties.DestinationConfig).toEqual({
      OnFailure: { Destination: queueArn },
    });
    expect(statementsOf(fn)).toEqual([{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: queueArn }]);
    expect(fn.Policies).toContainEqual({ DynamoDBCrudPolicy: { TableName: { Ref: 'VotesTable' } } });
    expect(fn.Policies).toContainEqual({ DynamoDBCrudPolicy: { TableName: { Ref: 'SessionsTable' } } });
  });

  it("runs tally from eddy build's zip (relative to the template) as index.handler", () => {
    expect(functionOf(template, 'TallyFunction')).toMatchObject({
      CodeUri: '../dist/functions/tally.zip',
      Handler: 'index.handler',
      Runtime: DEFAULT_RUNTIME,
      Timeout: 10,
      MemorySize: 128,
    });
  });

  it('binds the archiver to Sessions with the local TTL filter and mapping settings, writing to its bucket', () => {
    const archiver = functionOf(template, 'ArchiverFunction');
    expect(Object.keys(archiver.Events)).toEqual(['SessionsTtlDeletes']);
    const [event] = streamEventsOn(archiver, 'SessionsTable');
    expect(event!.Properties).toEqual({
      Stream: { 'Fn::GetAtt': ['SessionsTable', 'StreamArn'] },
      ...ARCHIVER_MAPPING_SETTINGS,
    });
    expect(event!.Properties.FilterCriteria).toEqual(TTL_DELETE_FILTER_CRITERIA);
    const pattern = JSON.parse(
      (event!.Properties.FilterCriteria as typeof TTL_DELETE_FILTER_CRITERIA).Filters[0].Pattern,
    );
    expect(pattern.userIdentity.principalId).toEqual([TTL_PRINCIPAL_ID]);
    expect(archiver).toMatchObject({
      CodeUri: '../dist/functions/archiver.zip',
      Environment: { Variables: { EDDY_ARCHIVE_BUCKET: { Ref: 'ArchiveBucket' } } },
      Policies: [{ S3CrudPolicy: { BucketName: { Ref: 'ArchiveBucket' } } }],
    });
    expect(template.Resources.ArchiveBucket).toMatchObject({
      Type: 'AWS::S3::Bucket',
      DeletionPolicy: 'Retain',
    });
  });

  it('deploys no ttl-expirer and no gsi-maintainer, and says why', () => {
    const functions = resourcesOfType(template, 'AWS::Serverless::Function').map(([id]) => id);
    expect(functions).toEqual(['TallyFunction', 'ArchiverFunction']);
    expect(template.Description).toContain(NOT_DEPLOYED);
    expect(
      yamlText
        .split('\n')
        .filter((line) => line.startsWith('#'))
        .join('\n'),
    ).toContain(NOT_DEPLOYED);
  });

  it('refers only to resources it declares', () => {
    const references = referencesIn(template.Resources).concat(referencesIn(template.Outputs));
    expect(references.length).toBeGreaterThan(5);
    for (const id of references) expect(Object.keys(template.Resources), id).toContain(id);
  });

  it('prints the template on stdout without --out, the same as JSON with --format json', async () => {
    const yamlRun = await synth('--config', VOTES_CONFIG);
    const jsonRun = await synth('--config', VOTES_CONFIG, '--format', 'json');
    expect(yamlRun.code + jsonRun.code).toBe(0);
    const fromYaml = parse(yamlRun.out.join('\n')) as SamTemplate;
    expect(JSON.parse(jsonRun.out.join('\n'))).toEqual(fromYaml);
    expect(functionOf(fromYaml, 'TallyFunction').CodeUri).toBe('dist/functions/tally.zip');
  });

  it('reports a missing config and a bad format', async () => {
    expect(await synth()).toMatchObject({
      code: 1,
      err: [expect.stringMatching(/^eddy synth: no config: pass --config/)],
    });
    expect((await synth('--format', 'toml')).code).not.toBe(0);
  });
});

/** Schedules, indexes, provisioned throughput, every mapping setting, three kinds of destination. */
const SHOP: EddyConfig = {
  tables: [
    {
      TableName: 'Orders',
      BillingMode: 'PROVISIONED',
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'status', AttributeType: 'S' },
        { AttributeName: 'createdAt', AttributeType: 'N' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'ByStatus',
          KeySchema: [
            { AttributeName: 'status', KeyType: 'HASH' },
            { AttributeName: 'createdAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['total'] },
          ProvisionedThroughput: { ReadCapacityUnits: 2, WriteCapacityUnits: 2 },
        },
      ],
      LocalSecondaryIndexes: [
        {
          IndexName: 'ByCreated',
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'createdAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      SSESpecification: { Enabled: true, SSEType: 'KMS' },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    },
    {
      TableName: 'Audit',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    },
  ],
  functions: {
    report: {
      handler: './report.ts',
      memorySize: 256,
      environment: { STAGE: 'prod' },
      events: [
        { schedule: { rate: '5m' } },
        { schedule: { rate: 'rate(1 hour)', Enabled: false } },
        { schedule: { rate: '30s' } },
      ],
    },
    'order-events': {
      handler: './orders.ts',
      exportName: 'onOrder',
      events: [
        {
          stream: {
            table: 'Orders',
            StartingPosition: 'LATEST',
            BatchSize: 10,
            MaximumBatchingWindowInSeconds: 5,
            FilterCriteria: { Filters: [{ Pattern: '{"eventName":["INSERT"]}' }] },
            FunctionResponseTypes: ['ReportBatchItemFailures'],
            MaximumRetryAttempts: 3,
            MaximumRecordAgeInSeconds: 3600,
            BisectBatchOnFunctionError: true,
            ParallelizationFactor: 2,
            TumblingWindowInSeconds: 60,
            Enabled: true,
            DestinationConfig: {
              OnFailure: { Destination: 'arn:aws:sns:us-east-1:000000000000:order-alarms' },
            },
          },
        },
        {
          stream: {
            table: 'Orders',
            DestinationConfig: { OnFailure: { Destination: 'arn:aws:sqs:eu-west-1:123456789012:real-dlq' } },
          },
        },
        {
          stream: {
            table: 'Orders',
            DestinationConfig: { OnFailure: { Destination: 'arn:aws:s3::000000000000:order-failures' } },
          },
        },
      ],
    },
  },
  ttl: { rate: '1m' },
};

const synthShop = (config: EddyConfig = SHOP) =>
  synthesize(config, { baseDirectory: '/shop', codeUriOf: (name) => `dist/functions/${name}.zip` });

describe('synthesize: schedules, indexes and destinations', () => {
  const { template, warnings } = synthShop();

  it('turns every schedule into a Schedule event with the same EventBridge rate expression', () => {
    const report = bindingsOf(SHOP, '/shop').find((binding) => binding.functionName === 'report')!;
    const events = Object.values(functionOf(template, 'ReportFunction').Events);
    expect(events.map((event) => event.Properties)).toEqual(
      report.schedules.map((schedule) => ({ Schedule: schedule.expression, Enabled: schedule.enabled })),
    );
    expect(events.map((event) => event.Properties.Schedule)).toEqual([
      'rate(5 minutes)',
      'rate(1 hour)',
      'rate(1 minute)',
    ]);
    expect(warnings).toContain(
      'functions.report.events[2].schedule.rate runs every 30000 ms locally; deployed it runs rate(1 minute)',
    );
  });

  it('declares the indexes with their projections, and provisioned throughput', () => {
    const orders = template.Resources.OrdersTable!.Properties!;
    expect(orders.GlobalSecondaryIndexes).toEqual(SHOP.tables![0]!.GlobalSecondaryIndexes);
    expect(orders.LocalSecondaryIndexes).toEqual(SHOP.tables![0]!.LocalSecondaryIndexes);
    expect(orders).toMatchObject({
      BillingMode: 'PROVISIONED',
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
    });
    expect(template.Resources.AuditTable!.Properties!.StreamSpecification).toBeUndefined();
  });

  it('passes every mapping setting SAM supports, with environment and memory', () => {
    const fn = functionOf(template, 'OrderEventsFunction');
    expect(Object.keys(fn.Events)).toEqual(['OrdersStream', 'OrdersStream2', 'OrdersStream3']);
    const first = fn.Events.OrdersStream!.Properties;
    for (const setting of [...STREAM_EVENT_SETTINGS, 'StartingPosition'])
      expect(first, setting).toHaveProperty(setting);
    expect(fn.Events.OrdersStream2!.Properties.StartingPosition).toBe('TRIM_HORIZON');
    expect(fn.Description).toBe('eddy function order-events: orders.ts (export onOrder)');
    expect(functionOf(template, 'ReportFunction')).toMatchObject({
      MemorySize: 256,
      Timeout: 3,
      Environment: { Variables: { STAGE: 'prod' } },
    });
  });

  it('creates placeholder SNS and S3 destinations, keeps a real ARN, and grants exactly the sends', () => {
    const fn = functionOf(template, 'OrderEventsFunction');
    const destination = (event: string) =>
      (fn.Events[event]!.Properties.DestinationConfig as { OnFailure: { Destination: unknown } }).OnFailure
        .Destination;
    expect(destination('OrdersStream')).toEqual({ Ref: 'OrderAlarmsTopic' });
    expect(destination('OrdersStream2')).toBe('arn:aws:sqs:eu-west-1:123456789012:real-dlq');
    expect(destination('OrdersStream3')).toEqual({ 'Fn::GetAtt': ['OrderFailuresBucket', 'Arn'] });
    expect(template.Resources.OrderAlarmsTopic?.Type).toBe('AWS::SNS::Topic');
    expect(template.Resources.OrderFailuresBucket?.Type).toBe('AWS::S3::Bucket');
    expect(statementsOf(fn)).toEqual([
      { Effect: 'Allow', Action: 'sns:Publish', Resource: { Ref: 'OrderAlarmsTopic' } },
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: 'arn:aws:sqs:eu-west-1:123456789012:real-dlq' },
      {
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: { 'Fn::GetAtt': ['OrderFailuresBucket', 'Arn'] },
      },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own ${Resource.Attribute} syntax
      { Effect: 'Allow', Action: 's3:PutObject', Resource: { 'Fn::Sub': '${OrderFailuresBucket.Arn}/*' } },
    ]);
    expect(Object.keys(template.Outputs!)).toEqual(['OrderAlarmsTopic', 'OrderFailuresBucket']);
  });

  it('refers only to resources it declares, and warns that ttl settings stay local', () => {
    for (const id of referencesIn(template.Resources)) expect(Object.keys(template.Resources)).toContain(id);
    expect(warnings).toContain('ttl settings are local only (DynamoDB manages this itself); not deployed');
  });

  it('refuses what cannot deploy: a stream-less binding, archiving without old images, a taken name, a bad ARN', () => {
    const bind = (stream: Record<string, unknown>): EddyConfig => ({
      ...SHOP,
      functions: { f: { handler: './f.ts', events: [{ stream: { table: 'Orders', ...stream } as never }] } },
    });
    expect(() => synthShop(bind({ table: 'Audit' }))).toThrow(
      new SynthError(
        'functions.f.events[0].stream.table',
        "table 'Audit' has no stream: enable its StreamSpecification to bind functions to it",
      ),
    );
    expect(() =>
      synthShop({ ...SHOP, archive: { tables: ['Orders'], sink: { type: 's3', bucket: 'b' } } }),
    ).toThrow(/archive\.tables\[0\]: table 'Orders' needs a stream with old images/);
    expect(() =>
      synthShop({
        ...SHOP,
        functions: { archiver: { handler: './mine.ts' } },
        archive: { tables: ['Orders'], sink: { type: 's3', bucket: 'b' } },
      }),
    ).toThrow(/functions\.archiver: the name is eddy's archiver's/);
    expect(() =>
      synthShop(bind({ DestinationConfig: { OnFailure: { Destination: 'arn:aws:lambda:x' } } })),
    ).toThrow(
      /functions\.f\.events\[0\]\.stream\.DestinationConfig\.OnFailure\.Destination: 'arn:aws:lambda:x' is not/,
    );
  });

  it.skipIf(!CFN_LINT)(
    'passes cfn-lint, YAML and JSON, the SAM transform included (skipped when cfn-lint is not on PATH)',
    async () => {
      writeFileSync(join(directory, 'shop.yaml'), renderTemplate(template, 'yaml'));
      expect((await synth('--config', VOTES_CONFIG, '--out', 'votes/template.json')).code).toBe(0);
      // Not spawnSync: a blocked event loop stops vitest's own timers too. A failing lint rejects
      // with its output, so the assertions below see it either way.
      const lint = await promisify(execFile)(
        'cfn-lint',
        ['votes/template.yaml', 'votes/template.json', 'shop.yaml'],
        { cwd: directory, encoding: 'utf8' },
      ).then(
        ({ stdout, stderr }) => ({ output: stdout + stderr, status: 0 }),
        (error: { stdout: string; stderr: string; code: number }) => ({
          output: error.stdout + error.stderr,
          status: error.code,
        }),
      );
      expect(lint.output).toBe('');
      expect(lint.status).toBe(0);
    },
    // A bound, not a speed: cfn-lint is a Python program that loads every resource schema and
    // the SAM translator (35 s at a load average of 15 on 2 cores).
    120_000,
  );
});

describe('template builders', () => {
  it('allocates alphanumeric logical ids, numbering a name taken twice', () => {
    const ids = new LogicalIds();
    expect(ids.allocate('tally-failures', 'Queue')).toBe('TallyFailuresQueue');
    expect(ids.allocate('tally_failures', 'Queue')).toBe('TallyFailuresQueue2');
    expect(ids.allocate('orders.v2', 'Table')).toBe('OrdersV2Table');
  });

  it('writes a CreateTable request as a table resource: PROVISIONED by default, policy as a document, unknown members warned', () => {
    const warnings: string[] = [];
    const resource = tableResource(
      {
        TableName: 'T',
        AttributeDefinitions: [{ AttributeName: 'k', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'k', KeyType: 'HASH' }],
        ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
        ResourcePolicy: '{"Version":"2012-10-17","Statement":[]}',
        StreamSpecification: { StreamEnabled: false },
        Surprise: true,
      } as never,
      'tables[0]',
      (message) => warnings.push(message),
    );
    expect(resource.Properties).toMatchObject({
      BillingMode: 'PROVISIONED',
      ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
      ResourcePolicy: { PolicyDocument: { Version: '2012-10-17', Statement: [] } },
    });
    expect(resource.Properties).not.toHaveProperty('StreamSpecification');
    expect(warnings).toEqual(['tables[0].Surprise has no AWS::DynamoDB::Table property; not deployed']);
  });

  it('renders YAML as CloudFormation reads it: 1.1 look-alikes quoted, no aliases, long strings unfolded', () => {
    const shared = { Pattern: `{"a":"${'x'.repeat(120)}"}` };
    const text = renderTemplate(
      {
        ...synthShop().template,
        Metadata: { flags: ['on', 'yes', '0777'], first: shared, second: shared },
      },
      'yaml',
      ['header line'],
    );
    expect(text.startsWith('# header line\n')).toBe(true);
    expect(text).toContain('- "on"\n');
    expect(text).toContain('- "yes"\n');
    expect(text).not.toMatch(/[&*]a\d/);
    expect(text).toContain(`Pattern: '{"a":"${'x'.repeat(120)}"}'\n`);
  });
});
