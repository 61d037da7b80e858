import { describe, expect, it } from 'vitest';
import { IN_USE, LIMIT, NOT_FOUND, wireError } from '../../../helpers/errors.js';
import {
  expectConstraints,
  expectValidation,
  hashTable,
  instantEngine,
  keys,
  rangeTable,
  slowEngine,
} from './helpers.js';

const INVALID = 'One or more parameter values were invalid: ';
const NOTHING =
  'At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required';
const BLOCKED =
  'This operation cannot be performed with given input values. Please contact DynamoDB service team for more info: Action Blocked: IndexUpdate';
const LIMIT_MESSAGE =
  'Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table';
const create = (name: string, key = 'x') => ({
  Create: { IndexName: name, KeySchema: keys([key, 'HASH']), Projection: { ProjectionType: 'ALL' } },
});

describe('UpdateTable stateless checks (docs/dynamodb.md §3.3.1, §3.3.2, §8.4)', () => {
  const engine = instantEngine();
  it.each([
    { TableName: 'abc' },
    { TableName: 'abc', GlobalSecondaryIndexUpdates: [] },
    { TableName: 'abc', AttributeDefinitions: [] },
  ])('says nothing is to be updated for %j', (input) => {
    expectValidation(engine, 'UpdateTable', input, NOTHING);
  });
  it('lists null throughput members', () => {
    expectConstraints(engine, 'UpdateTable', { TableName: 'abc', ProvisionedThroughput: {} }, [
      "Value null at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must not be null",
      "Value null at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must not be null",
    ]);
  });
  it('lists bad index names and throughput in Update entries', () => {
    expectConstraints(
      engine,
      'UpdateTable',
      {
        TableName: 'abc',
        GlobalSecondaryIndexUpdates: [
          { Update: { IndexName: 'a', ProvisionedThroughput: {} } },
          {
            Update: {
              IndexName: 'abc;',
              ProvisionedThroughput: { ReadCapacityUnits: 1000000000001, WriteCapacityUnits: 0 },
            },
          },
        ],
      },
      [
        "Value 'a' at 'globalSecondaryIndexUpdates.1.member.update.indexName' failed to satisfy constraint: Member must have length greater than or equal to 3",
        "Value null at 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must not be null",
        "Value null at 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must not be null",
        "Value 'abc;' at 'globalSecondaryIndexUpdates.2.member.update.indexName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
        "Value '0' at 'globalSecondaryIndexUpdates.2.member.update.provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1",
      ],
    );
  });
  it('lists a negative unit before the bound of the other', () => {
    expectValidation(
      engine,
      'UpdateTable',
      {
        TableName: 'abc',
        ProvisionedThroughput: { ReadCapacityUnits: 1000000000001, WriteCapacityUnits: -1 },
      },
      "1 validation error detected: Value '-1' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1",
    );
  });
  it.each([
    [
      { ReadCapacityUnits: 1000000000001, WriteCapacityUnits: 1000000000001 },
      'Given value 1000000000001 for ReadCapacityUnits is out of bounds',
    ],
    [
      { ReadCapacityUnits: 1000000000000, WriteCapacityUnits: 1000000000001 },
      'Given value 1000000000001 for WriteCapacityUnits is out of bounds',
    ],
  ])('checks the 10^12 bound before the table (%#)', (throughput, message) => {
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'missing', ProvisionedThroughput: throughput },
      message,
    );
  });
  it('requires throughput when switching to PROVISIONED', () => {
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'abc', BillingMode: 'PROVISIONED' },
      `${INVALID}ProvisionedThroughput must be specified when BillingMode is PROVISIONED`,
    );
  });
  it('rejects throughput with PAY_PER_REQUEST', () => {
    expectValidation(
      engine,
      'UpdateTable',
      {
        TableName: 'abc',
        BillingMode: 'PAY_PER_REQUEST',
        ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
      },
      `${INVALID}Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST`,
    );
  });
  it.each([
    [
      { SSESpecification: { Enabled: true }, DeletionProtectionEnabled: true },
      'Server-Side Encryption modification',
    ],
    [{ TableClass: 'STANDARD', BillingMode: 'PAY_PER_REQUEST' }, 'TableClass modification'],
    [{ DeletionProtectionEnabled: true, BillingMode: 'PAY_PER_REQUEST' }, 'DeletionProtection modification'],
    [{ WarmThroughput: { ReadUnitsPerSecond: 13000 }, BillingMode: 'PAY_PER_REQUEST' }, 'WarmThroughput'],
  ])('rejects settings that must travel alone (%#)', (input, member) => {
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'abc', ...input },
      `${INVALID}${member} must be the only operation in the request`,
    );
  });
  it.each([
    [
      {
        ProvisionedThroughput: { ReadCapacityUnits: 2, WriteCapacityUnits: 2 },
        StreamSpecification: { StreamEnabled: false },
      },
      'You cannot modify stream status while updating table IOPS',
    ],
    [
      {
        ProvisionedThroughput: { ReadCapacityUnits: 2, WriteCapacityUnits: 2 },
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'abc' } }],
      },
      'You cannot create or delete index while updating table IOPS',
    ],
    [
      {
        StreamSpecification: { StreamEnabled: false },
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'abc' } }],
      },
      'You cannot create or delete index while changing stream status',
    ],
  ])('rejects changes that cannot go together (%#)', (input, text) => {
    expectValidation(engine, 'UpdateTable', { TableName: 'abc', ...input }, INVALID + text);
  });
  it.each([
    [{ StreamEnabled: true }, 'If stream is being enabled then UpdateViewType is required'],
    [
      { StreamEnabled: false, StreamViewType: 'KEYS_ONLY' },
      'If stream is being disabled, then UpdateViewType must not be specified',
    ],
  ])('checks StreamSpecification (%#)', (spec, text) => {
    expectValidation(engine, 'UpdateTable', { TableName: 'abc', StreamSpecification: spec }, INVALID + text);
  });
  it.each([[[{}]], [[{}, {}, {}, {}, {}, {}]]])('requires an action in every entry (%#)', (updates) => {
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'abc', GlobalSecondaryIndexUpdates: updates },
      `${INVALID}One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null`,
    );
  });
  it('rejects two actions in one entry', () => {
    expectValidation(
      engine,
      'UpdateTable',
      {
        TableName: 'abc',
        AttributeDefinitions: [{ AttributeName: 'x', AttributeType: 'N' }],
        GlobalSecondaryIndexUpdates: [{ ...create('ind'), Delete: { IndexName: 'xyz' } }],
      },
      `${INVALID}Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object`,
    );
  });
  it('rejects two updates of one index', () => {
    expectValidation(
      engine,
      'UpdateTable',
      {
        TableName: 'abc',
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'abc' } }, { Delete: { IndexName: 'abc' } }],
      },
      `${INVALID}Only one global secondary index update per index is allowed simultaneously. Index: abc`,
    );
  });
});

describe('UpdateTable against the table (docs/dynamodb.md §3.3.3, §3.3.5)', () => {
  it('answers ResourceNotFoundException for a missing table before looking at indexes', () => {
    const engine = instantEngine();
    for (const input of [
      { TableName: 'abc', ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 } },
      {
        TableName: 'abc',
        GlobalSecondaryIndexUpdates: [
          {
            Update: {
              IndexName: 'abc',
              ProvisionedThroughput: { ReadCapacityUnits: 1000000000001, WriteCapacityUnits: 1000000000001 },
            },
          },
        ],
      },
    ])
      expect(wireError(() => engine.execute('UpdateTable', input))).toEqual({
        __type: NOT_FOUND,
        message: 'Requested resource not found: Table: abc not found',
      });
  });
  it('blocks an index update above 10^12 units', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable('abc'));
    for (const throughput of [
      { ReadCapacityUnits: 1000000000001, WriteCapacityUnits: 1000000000001 },
      { ReadCapacityUnits: 1000000000000, WriteCapacityUnits: 1000000000001 },
    ])
      expectValidation(
        engine,
        'UpdateTable',
        {
          TableName: 'abc',
          GlobalSecondaryIndexUpdates: [{ Update: { IndexName: 'abc', ProvisionedThroughput: throughput } }],
        },
        BLOCKED,
      );
  });
  it.each([
    [
      [
        { Delete: { IndexName: 'abc' } },
        { Delete: { IndexName: 'abd' } },
        { Delete: { IndexName: 'abe' } },
        { Delete: { IndexName: 'abf' } },
        { Delete: { IndexName: 'abg' } },
        { Delete: { IndexName: 'abh' } },
      ],
    ],
    [[create('ind1'), create('ind2')]],
    [[{ Delete: { IndexName: 'ind1' } }, { Delete: { IndexName: 'ind2' } }]],
    [[create('ind1'), { Delete: { IndexName: 'ind2' } }]],
  ])('answers LimitExceededException for more than one create or delete (%#)', (updates) => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('abc'));
    expect(
      wireError(() =>
        engine.execute('UpdateTable', {
          TableName: 'abc',
          AttributeDefinitions: [{ AttributeName: 'x', AttributeType: 'N' }],
          GlobalSecondaryIndexUpdates: updates,
        }),
      ),
    ).toEqual({ __type: LIMIT, message: LIMIT_MESSAGE });
  });
  it('refuses a table still being created or updated', async () => {
    const { engine, clock } = slowEngine(100);
    engine.execute('CreateTable', rangeTable('busy'));
    const update = {
      TableName: 'busy',
      ProvisionedThroughput: { ReadCapacityUnits: 2, WriteCapacityUnits: 2 },
    };
    expect(wireError(() => engine.execute('UpdateTable', update))).toEqual({
      __type: IN_USE,
      message: 'Attempt to change a resource which is still in use: Table is being created: busy',
    });
    await clock.advance(100);
    engine.execute('UpdateTable', update);
    expect(
      wireError(() =>
        engine.execute('UpdateTable', {
          ...update,
          ProvisionedThroughput: { ReadCapacityUnits: 3, WriteCapacityUnits: 3 },
        }),
      ),
    ).toEqual({
      __type: IN_USE,
      message: 'Attempt to change a resource which is still in use: Table is being updated: busy',
    });
  });
  it('changes nothing when a later check fails', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('abc'));
    const before = engine.execute('DescribeTable', { TableName: 'abc' });
    expect(
      wireError(() =>
        engine.execute('UpdateTable', {
          TableName: 'abc',
          AttributeDefinitions: [{ AttributeName: 'x', AttributeType: 'S' }],
          GlobalSecondaryIndexUpdates: [
            create('new', 'x'),
            { Update: { IndexName: 'ghost', OnDemandThroughput: { MaxReadRequestUnits: 5 } } },
          ],
        }),
      ).__type,
    ).toBe(NOT_FOUND);
    expect(engine.execute('DescribeTable', { TableName: 'abc' })).toEqual(before);
  });
});
