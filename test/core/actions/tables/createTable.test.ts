import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../core/clock.js';
import { Engine } from '../../../../core/engine.js';
import { IN_USE, NOT_FOUND, wireError } from '../../../helpers/errors.js';
import { arnOf, defs, describeOf, instantEngine, keys, rangeTable, slowEngine } from './helpers.js';

const START = Date.UTC(2026, 0, 1);
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const pt = { ReadCapacityUnits: 5, WriteCapacityUnits: 3 };

describe('CreateTable (docs/dynamodb.md §3.1)', () => {
  it('answers the CREATING description of a provisioned table', () => {
    // Prepare
    const engine = instantEngine();
    // Act
    const output = engine.execute('CreateTable', rangeTable('Scores', { ProvisionedThroughput: pt }));
    // Assess
    expect(output).toEqual({
      TableDescription: {
        AttributeDefinitions: defs(['a', 'S'], ['b', 'S']),
        TableName: 'Scores',
        KeySchema: keys(['a', 'HASH'], ['b', 'RANGE']),
        TableStatus: 'CREATING',
        CreationDateTime: START / 1000,
        ProvisionedThroughput: { NumberOfDecreasesToday: 0, ReadCapacityUnits: 5, WriteCapacityUnits: 3 },
        TableSizeBytes: 0,
        ItemCount: 0,
        TableArn: arnOf('Scores'),
        TableId: expect.stringMatching(UUID_V4),
        DeletionProtectionEnabled: false,
      },
    });
  });

  it('answers 0/0 throughput and billing summaries on demand, with the switch time once ACTIVE', () => {
    const engine = instantEngine();
    const created = engine.execute('CreateTable', {
      TableName: 'OnDemand',
      AttributeDefinitions: defs(['id', 'N']),
      KeySchema: keys(['id', 'HASH']),
      BillingMode: 'PAY_PER_REQUEST',
    }).TableDescription as Record<string, unknown>;
    expect(created.ProvisionedThroughput).toEqual({
      NumberOfDecreasesToday: 0,
      ReadCapacityUnits: 0,
      WriteCapacityUnits: 0,
    });
    expect(created.BillingModeSummary).toEqual({ BillingMode: 'PAY_PER_REQUEST' });
    expect(created.TableThroughputModeSummary).toEqual({ TableThroughputMode: 'PAY_PER_REQUEST' });
    const described = describeOf(engine, 'OnDemand');
    expect(described.TableStatus).toBe('ACTIVE');
    expect(described.BillingModeSummary).toEqual({
      BillingMode: 'PAY_PER_REQUEST',
      LastUpdateToPayPerRequestDateTime: described.CreationDateTime,
    });
    expect(described.TableThroughputModeSummary).toEqual({
      TableThroughputMode: 'PAY_PER_REQUEST',
      LastUpdateToPayPerRequestDateTime: described.CreationDateTime,
    });
  });

  it('keeps fractional creation seconds from the clock and a fresh lowercase UUID v4 per table', () => {
    const engine = new Engine({ clock: new VirtualClock(START + 123) });
    const first = engine.execute('CreateTable', rangeTable('one')).TableDescription as Record<
      string,
      unknown
    >;
    const second = engine.execute('CreateTable', rangeTable('two')).TableDescription as Record<
      string,
      unknown
    >;
    expect(first.CreationDateTime).toBe((START + 123) / 1000);
    expect(first.TableId).toMatch(UUID_V4);
    expect(first.TableId).not.toBe(second.TableId);
  });

  it('describes LSIs without status and GSIs with CREATING status and throughput', () => {
    const engine = instantEngine();
    const output = engine.execute('CreateTable', {
      ...rangeTable('Indexed', { AttributeDefinitions: defs(['a', 'S'], ['b', 'S'], ['c', 'N']) }),
      LocalSecondaryIndexes: [
        {
          IndexName: 'byC',
          KeySchema: keys(['a', 'HASH'], ['c', 'RANGE']),
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['x'] },
        },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byB',
          KeySchema: keys(['b', 'HASH']),
          Projection: { ProjectionType: 'KEYS_ONLY' },
          ProvisionedThroughput: pt,
        },
      ],
    }).TableDescription as Record<string, unknown>;
    expect(output.LocalSecondaryIndexes).toEqual([
      {
        IndexName: 'byC',
        KeySchema: keys(['a', 'HASH'], ['c', 'RANGE']),
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['x'] },
        IndexSizeBytes: 0,
        ItemCount: 0,
        IndexArn: `${arnOf('Indexed')}/index/byC`,
      },
    ]);
    expect(output.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'byB',
        KeySchema: keys(['b', 'HASH']),
        Projection: { ProjectionType: 'KEYS_ONLY' },
        IndexStatus: 'CREATING',
        ProvisionedThroughput: { NumberOfDecreasesToday: 0, ReadCapacityUnits: 5, WriteCapacityUnits: 3 },
        IndexSizeBytes: 0,
        ItemCount: 0,
        IndexArn: `${arnOf('Indexed')}/index/byB`,
      },
    ]);
    expect(
      (describeOf(engine, 'Indexed').GlobalSecondaryIndexes as Record<string, unknown>[])[0]!.IndexStatus,
    ).toBe('ACTIVE');
  });

  it('stays CREATING (missing to the data plane) until the transient delay has passed', async () => {
    const { engine, clock } = slowEngine(1000);
    engine.execute('CreateTable', {
      ...rangeTable('Slow'),
      AttributeDefinitions: defs(['a', 'S'], ['b', 'S'], ['c', 'S']),
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byC',
          KeySchema: keys(['c', 'HASH']),
          Projection: { ProjectionType: 'ALL' },
          ProvisionedThroughput: pt,
        },
      ],
    });
    await clock.advance(999);
    expect(describeOf(engine, 'Slow').TableStatus).toBe('CREATING');
    expect(wireError(() => engine.dataPlaneTable(engine.region(), 'Slow'))).toEqual({
      __type: NOT_FOUND,
      message: 'Requested resource not found',
    });
    await clock.advance(1);
    const described = describeOf(engine, 'Slow');
    expect(described.TableStatus).toBe('ACTIVE');
    expect((described.GlobalSecondaryIndexes as Record<string, unknown>[])[0]!.IndexStatus).toBe('ACTIVE');
    expect(engine.dataPlaneTable(engine.region(), 'Slow').name).toBe('Slow');
  });

  it('answers ResourceInUseException for an existing table, CREATING or not', () => {
    const { engine } = slowEngine();
    engine.execute('CreateTable', rangeTable('Twice'));
    expect(wireError(() => engine.execute('CreateTable', rangeTable('Twice')))).toEqual({
      __type: IN_USE,
      message: 'Table already exists: Twice',
    });
  });

  it('creates a stream with an ARN and label from the clock', () => {
    const engine = new Engine({ clock: new VirtualClock(Date.UTC(2015, 4, 11, 21, 21, 33, 291)) });
    const output = engine.execute('CreateTable', {
      ...rangeTable('Streamed'),
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }).TableDescription as Record<string, unknown>;
    expect(output.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(output.LatestStreamLabel).toBe('2015-05-11T21:21:33.291');
    expect(output.LatestStreamArn).toBe(`${arnOf('Streamed')}/stream/2015-05-11T21:21:33.291`);
    expect(describeOf(engine, 'Streamed').LatestStreamArn).toBe(output.LatestStreamArn);
  });

  it('describes no stream when the specification disables it', () => {
    const engine = instantEngine();
    const output = engine.execute('CreateTable', {
      ...rangeTable('NoStream'),
      StreamSpecification: { StreamEnabled: false },
    }).TableDescription as Record<string, unknown>;
    expect(output).not.toHaveProperty('StreamSpecification');
    expect(output).not.toHaveProperty('LatestStreamArn');
  });

  it('describes KMS encryption, table class, deletion protection and throughput settings', () => {
    const engine = instantEngine();
    const output = engine.execute('CreateTable', {
      TableName: 'Settings',
      AttributeDefinitions: defs(['a', 'S']),
      KeySchema: keys(['a', 'HASH']),
      BillingMode: 'PAY_PER_REQUEST',
      SSESpecification: {
        Enabled: true,
        SSEType: 'KMS',
        KMSMasterKeyId: '1234abcd-12ab-34cd-56ef-1234567890ab',
      },
      TableClass: 'STANDARD_INFREQUENT_ACCESS',
      DeletionProtectionEnabled: true,
      OnDemandThroughput: { MaxReadRequestUnits: 100, MaxWriteRequestUnits: -1 },
      WarmThroughput: { ReadUnitsPerSecond: 15000, WriteUnitsPerSecond: 5000 },
    }).TableDescription as Record<string, unknown>;
    expect(output.SSEDescription).toEqual({
      Status: 'ENABLED',
      SSEType: 'KMS',
      KMSMasterKeyArn: 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab',
    });
    expect(output.TableClassSummary).toEqual({ TableClass: 'STANDARD_INFREQUENT_ACCESS' });
    expect(output.DeletionProtectionEnabled).toBe(true);
    expect(output.OnDemandThroughput).toEqual({ MaxReadRequestUnits: 100, MaxWriteRequestUnits: -1 });
    expect(output.WarmThroughput).toEqual({
      ReadUnitsPerSecond: 15000,
      WriteUnitsPerSecond: 5000,
      Status: 'ACTIVE',
    });
  });

  it('keeps the tags given at creation', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', { ...rangeTable('Tagged'), Tags: [{ Key: 'team', Value: 'core' }] });
    expect(engine.execute('ListTagsOfResource', { ResourceArn: arnOf('Tagged') })).toEqual({
      Tags: [{ Key: 'team', Value: 'core' }],
    });
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty'])('treats the table name %s as data', (name) => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable(name));
    expect(describeOf(engine, name).TableName).toBe(name);
    expect(engine.execute('ListTables', {})).toEqual({ TableNames: [name] });
    engine.execute('DeleteTable', { TableName: name });
    expect(engine.execute('ListTables', {})).toEqual({ TableNames: [] });
  });

  it('keeps tables per region and account', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable('Regional'));
    const other = engine.execute('CreateTable', rangeTable('Regional'), {
      region: 'eu-west-1',
      accountId: '123456789012',
    });
    expect((other.TableDescription as Record<string, unknown>).TableArn).toBe(
      'arn:aws:dynamodb:eu-west-1:123456789012:table/Regional',
    );
  });
});
