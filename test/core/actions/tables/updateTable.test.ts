import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../core/clock.js';
import { Engine } from '../../../../core/engine.js';
import {
  arnOf,
  describeOf,
  expectValidation,
  hashTable,
  instantEngine,
  keys,
  rangeTable,
  slowEngine,
} from './helpers.js';

const INVALID = 'One or more parameter values were invalid: ';
const START = Date.UTC(2026, 0, 1);
const units = (read: number, write: number) => ({ ReadCapacityUnits: read, WriteCapacityUnits: write });
const gsi = (name: string, key: string, throughput?: unknown) => ({
  IndexName: name,
  KeySchema: keys([key, 'HASH']),
  Projection: { ProjectionType: 'ALL' },
  ...(throughput === undefined ? {} : { ProvisionedThroughput: throughput }),
});
const withTwoIndexes = (name: string, extra: Record<string, unknown> = {}) => ({
  ...rangeTable(name, {
    AttributeDefinitions: [
      { AttributeName: 'a', AttributeType: 'S' },
      { AttributeName: 'b', AttributeType: 'S' },
      { AttributeName: 'c', AttributeType: 'S' },
    ],
  }),
  GlobalSecondaryIndexes: [gsi('index3', 'b', units(1, 1)), gsi('index4', 'c', units(1, 1))],
  ...extra,
});

describe('UpdateTable provisioned throughput (docs/dynamodb.md §3.3.5)', () => {
  it('refuses a change to the current values with the service message', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable('same', { ProvisionedThroughput: units(5, 7) }));
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'same', ProvisionedThroughput: units(5, 7) },
      'The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: 5. Requested ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the table: 7. Requested WriteCapacityUnits: 7. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.',
    );
  });

  it('answers UPDATING with the old values, then applies them after the delay', async () => {
    const { engine, clock } = slowEngine(1000);
    engine.execute('CreateTable', rangeTable('grow', { ProvisionedThroughput: units(1, 1) }));
    await clock.advance(1000);
    const output = engine.execute('UpdateTable', { TableName: 'grow', ProvisionedThroughput: units(3, 3) })
      .TableDescription as Record<string, unknown>;
    expect(output.TableStatus).toBe('UPDATING');
    expect(output.ProvisionedThroughput).toEqual({
      LastIncreaseDateTime: (START + 1000) / 1000,
      NumberOfDecreasesToday: 0,
      ...units(1, 1),
    });
    await clock.advance(1000);
    const table = describeOf(engine, 'grow');
    expect(table.TableStatus).toBe('ACTIVE');
    expect(table.ProvisionedThroughput).toEqual({
      LastIncreaseDateTime: (START + 2000) / 1000,
      NumberOfDecreasesToday: 0,
      ...units(3, 3),
    });
  });

  it('counts decreases', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable('shrink', { ProvisionedThroughput: units(4, 4) }));
    engine.execute('UpdateTable', { TableName: 'shrink', ProvisionedThroughput: units(2, 4) });
    expect(describeOf(engine, 'shrink').ProvisionedThroughput).toEqual({
      LastDecreaseDateTime: START / 1000,
      NumberOfDecreasesToday: 1,
      ...units(2, 4),
    });
  });

  it('refuses units on an on-demand table', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('ondemand'));
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'ondemand', ProvisionedThroughput: units(1, 1) },
      `${INVALID}Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST`,
    );
  });

  it('refuses OnDemandThroughput on a provisioned table', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable('prov'));
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'prov', OnDemandThroughput: { MaxWriteRequestUnits: 5 } },
      `${INVALID}MaxWriteRequestUnits for OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED`,
    );
  });
});

describe('UpdateTable billing mode', () => {
  it('switches to on demand: 0/0 at once, the switch time once ACTIVE', async () => {
    const { engine, clock } = slowEngine(1000);
    engine.execute('CreateTable', withTwoIndexes('switch'));
    await clock.advance(1000);
    const output = engine.execute('UpdateTable', { TableName: 'switch', BillingMode: 'PAY_PER_REQUEST' })
      .TableDescription as Record<string, unknown>;
    expect(output.TableStatus).toBe('UPDATING');
    expect(output.BillingModeSummary).toEqual({ BillingMode: 'PAY_PER_REQUEST' });
    expect(output.TableThroughputModeSummary).toEqual({ TableThroughputMode: 'PAY_PER_REQUEST' });
    expect(output.ProvisionedThroughput).toEqual({ NumberOfDecreasesToday: 0, ...units(0, 0) });
    for (const index of output.GlobalSecondaryIndexes as Record<string, unknown>[]) {
      expect(index.IndexStatus).toBe('UPDATING');
      expect(index.ProvisionedThroughput).toEqual({ NumberOfDecreasesToday: 0, ...units(0, 0) });
    }
    await clock.advance(1000);
    const table = describeOf(engine, 'switch');
    expect(table.TableStatus).toBe('ACTIVE');
    expect(table.BillingModeSummary).toEqual({
      BillingMode: 'PAY_PER_REQUEST',
      LastUpdateToPayPerRequestDateTime: (START + 2000) / 1000,
    });
    expect(
      (table.GlobalSecondaryIndexes as Record<string, unknown>[]).map((index) => index.IndexStatus),
    ).toEqual(['ACTIVE', 'ACTIVE']);
  });

  it('switches back to provisioned only with throughput for every index', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', withTwoIndexes('back'));
    engine.execute('UpdateTable', { TableName: 'back', BillingMode: 'PAY_PER_REQUEST' });
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'back', BillingMode: 'PROVISIONED', ProvisionedThroughput: units(2, 2) },
      `${INVALID}ProvisionedThroughput must be specified for index: index3,index4`,
    );
    const output = engine.execute('UpdateTable', {
      TableName: 'back',
      BillingMode: 'PROVISIONED',
      ProvisionedThroughput: units(2, 2),
      GlobalSecondaryIndexUpdates: [
        { Update: { IndexName: 'index3', ProvisionedThroughput: units(2, 2) } },
        { Update: { IndexName: 'index4', ProvisionedThroughput: units(2, 2) } },
      ],
    }).TableDescription as Record<string, unknown>;
    expect(output.TableStatus).toBe('UPDATING');
    expect(output.BillingModeSummary).toEqual({
      BillingMode: 'PROVISIONED',
      LastUpdateToPayPerRequestDateTime: START / 1000,
    });
    expect(output.ProvisionedThroughput).toEqual({ NumberOfDecreasesToday: 0, ...units(2, 2) });
    const table = describeOf(engine, 'back');
    expect(
      (table.GlobalSecondaryIndexes as Record<string, unknown>[]).map((index) => [
        index.IndexStatus,
        index.ProvisionedThroughput,
      ]),
    ).toEqual([
      ['ACTIVE', { NumberOfDecreasesToday: 0, ...units(2, 2) }],
      ['ACTIVE', { NumberOfDecreasesToday: 0, ...units(2, 2) }],
    ]);
  });

  it('accepts the current billing mode again and settles back to ACTIVE', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('again'));
    const output = engine.execute('UpdateTable', { TableName: 'again', BillingMode: 'PAY_PER_REQUEST' })
      .TableDescription as Record<string, unknown>;
    expect(output.TableStatus).toBe('UPDATING');
    expect(describeOf(engine, 'again').TableStatus).toBe('ACTIVE');
  });
});

describe('UpdateTable streams (docs/streams-and-lambda.md §1.1.7, §1.1.8, §1.6)', () => {
  const at = Date.UTC(2015, 4, 11, 21, 21, 33, 291);
  const enable = (viewType = 'NEW_IMAGE') => ({
    StreamSpecification: { StreamEnabled: true, StreamViewType: viewType },
  });

  it('enables a stream with a new ARN and label from the clock', () => {
    const engine = new Engine({ clock: new VirtualClock(at) });
    engine.execute('CreateTable', hashTable('events'));
    const output = engine.execute('UpdateTable', { TableName: 'events', ...enable() })
      .TableDescription as Record<string, unknown>;
    expect(output.TableStatus).toBe('UPDATING');
    expect(output.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
    expect(output.LatestStreamLabel).toBe('2015-05-11T21:21:33.291');
    expect(output.LatestStreamArn).toBe(`${arnOf('events')}/stream/2015-05-11T21:21:33.291`);
    expect(engine.region().tables.get('events')!.stream).toEqual({
      enabled: true,
      viewType: 'NEW_IMAGE',
      arn: output.LatestStreamArn,
      label: '2015-05-11T21:21:33.291',
    });
  });

  it('refuses to enable an enabled stream, even with another view type', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('events', enable('KEYS_ONLY')));
    for (const viewType of ['KEYS_ONLY', 'NEW_AND_OLD_IMAGES'])
      expectValidation(
        engine,
        'UpdateTable',
        { TableName: 'events', ...enable(viewType) },
        'Table already has an enabled stream: TableName: events',
      );
  });

  it('disables a stream and keeps it as the latest one', () => {
    const engine = instantEngine();
    const created = engine.execute('CreateTable', hashTable('events', enable())).TableDescription as Record<
      string,
      unknown
    >;
    const output = engine.execute('UpdateTable', {
      TableName: 'events',
      StreamSpecification: { StreamEnabled: false },
    }).TableDescription as Record<string, unknown>;
    expect(output.StreamSpecification).toEqual({ StreamEnabled: false });
    expect(output.LatestStreamArn).toBe(created.LatestStreamArn);
    expect(output.LatestStreamLabel).toBe(created.LatestStreamLabel);
    expect(engine.region().tables.get('events')!.stream!.enabled).toBe(false);
  });

  it('refuses to disable a stream that does not exist or is disabled', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('quiet'));
    const disable = { TableName: 'quiet', StreamSpecification: { StreamEnabled: false } };
    expectValidation(engine, 'UpdateTable', disable, 'Table has no stream to disable: TableName: quiet');
    engine.execute('UpdateTable', { TableName: 'quiet', ...enable() });
    engine.execute('UpdateTable', disable);
    expectValidation(engine, 'UpdateTable', disable, 'Table has no stream to disable: TableName: quiet');
  });

  it('re-enabling creates a new stream with another label and ARN, even at the same instant', () => {
    const engine = new Engine({ clock: new VirtualClock(at) });
    const first = engine.execute('CreateTable', hashTable('events', enable())).TableDescription as Record<
      string,
      unknown
    >;
    engine.execute('UpdateTable', { TableName: 'events', StreamSpecification: { StreamEnabled: false } });
    const second = engine.execute('UpdateTable', { TableName: 'events', ...enable('OLD_IMAGE') })
      .TableDescription as Record<string, unknown>;
    expect(second.LatestStreamLabel).toBe('2015-05-11T21:21:33.292');
    expect(second.LatestStreamArn).not.toBe(first.LatestStreamArn);
    expect(second.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'OLD_IMAGE' });
  });
});

describe('UpdateTable other settings', () => {
  it('turns deletion protection on and off without leaving ACTIVE', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('guarded'));
    const output = engine.execute('UpdateTable', { TableName: 'guarded', DeletionProtectionEnabled: true })
      .TableDescription as Record<string, unknown>;
    expect(output.TableStatus).toBe('ACTIVE');
    expect(output.DeletionProtectionEnabled).toBe(true);
  });

  it('switches encryption to a KMS key and back to the default', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('secret'));
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'secret', SSESpecification: { Enabled: false } },
      `${INVALID}Table is already encrypted by default`,
    );
    const keyArn = 'arn:aws:kms:us-east-1:000000000000:key/abc';
    const output = engine.execute('UpdateTable', {
      TableName: 'secret',
      SSESpecification: { Enabled: true, SSEType: 'KMS', KMSMasterKeyId: keyArn },
    }).TableDescription as Record<string, unknown>;
    expect(output.SSEDescription).toEqual({ Status: 'ENABLED', SSEType: 'KMS', KMSMasterKeyArn: keyArn });
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'secret', SSESpecification: { Enabled: true, SSEType: 'KMS', KMSMasterKeyId: keyArn } },
      `${INVALID}Table is already encrypted with given KMSMasterKeyId. Use KMSMasterKeyId parameter if you want to change Master Key`,
    );
    engine.execute('UpdateTable', { TableName: 'secret', SSESpecification: { Enabled: false } });
    expect(describeOf(engine, 'secret')).not.toHaveProperty('SSEDescription');
  });

  it('changes the table class', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('classy'));
    engine.execute('UpdateTable', { TableName: 'classy', TableClass: 'STANDARD_INFREQUENT_ACCESS' });
    expect(describeOf(engine, 'classy').TableClassSummary).toEqual({
      TableClass: 'STANDARD_INFREQUENT_ACCESS',
    });
  });
});
