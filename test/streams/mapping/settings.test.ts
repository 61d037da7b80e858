import { describe, expect, it } from 'vitest';
import { LambdaServiceError } from '../../../streams/mapping/errors.js';
import type { CreateEventSourceMappingInput } from '../../../streams/mapping/settings.js';
import { mappingFixture } from './helpers.js';

/**
 * CreateEventSourceMapping settings, defaults, ranges and messages
 * (docs/streams-and-lambda.md §2.1, §3.1, §3.2).
 */

function setup() {
  const f = mappingFixture();
  f.functions.define({ name: 'fn', handler: async () => undefined });
  const create = (input: Partial<CreateEventSourceMappingInput>) =>
    f.manager.create({
      FunctionName: 'fn',
      EventSourceArn: f.streamArn,
      StartingPosition: 'LATEST',
      ...input,
    });
  return { f, create };
}

/** The Lambda error `run` throws: name, HTTP status and wire body. */
function lambdaError(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof LambdaServiceError)
      return { name: error.name, statusCode: error.statusCode, message: error.message, body: error.toWire() };
    throw error;
  }
  throw new Error('expected a Lambda error');
}

const range = (value: number, member: string, constraint: string) =>
  `1 validation error detected: Value '${value}' at '${member}' failed to satisfy constraint: Member must have value ${constraint}`;

describe('CreateEventSourceMapping (docs/streams-and-lambda.md §2.1)', () => {
  it('docs/streams-and-lambda.md §2.1.15 answers State Creating with every default filled in, then the mapping is Enabled', () => {
    const { f, create } = setup();
    const created = create({});
    expect(created).toEqual({
      BatchSize: 100,
      BisectBatchOnFunctionError: false,
      DestinationConfig: { OnFailure: {} },
      EventSourceArn: f.streamArn,
      EventSourceMappingArn: `arn:aws:lambda:us-east-1:000000000000:event-source-mapping:${created.UUID}`,
      FunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:fn',
      FunctionResponseTypes: [],
      LastModified: f.clock.now() / 1000,
      LastProcessingResult: 'No records processed',
      MaximumBatchingWindowInSeconds: 0,
      MaximumRecordAgeInSeconds: -1,
      MaximumRetryAttempts: -1,
      ParallelizationFactor: 1,
      StartingPosition: 'LATEST',
      State: 'Creating',
      StateTransitionReason: 'User action',
      TumblingWindowInSeconds: 0,
      UUID: created.UUID,
    });
    expect(created.UUID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(f.manager.get(created.UUID).State).toBe('Enabled');
  });

  it('docs/streams-and-lambda.md §2.1.1 accepts BatchSize 1..10,000 and rejects 0 and 10,001 with the validator’s message', () => {
    const { create } = setup();
    expect(lambdaError(() => create({ BatchSize: 0 }))).toEqual({
      name: 'ValidationException',
      statusCode: 400,
      message: range(0, 'batchSize', 'greater than or equal to 1'),
      body: { message: range(0, 'batchSize', 'greater than or equal to 1') },
    });
    expect(lambdaError(() => create({ BatchSize: 10_001 })).message).toBe(
      range(10_001, 'batchSize', 'less than or equal to 10000'),
    );
    expect(create({ BatchSize: 10_000 }).BatchSize).toBe(10_000);
  });

  it('docs/streams-and-lambda.md §2.1.3 does not require a window for BatchSize > 10', () => {
    const { create } = setup();
    expect(create({ BatchSize: 100, MaximumBatchingWindowInSeconds: 0 }).MaximumBatchingWindowInSeconds).toBe(
      0,
    );
  });

  it('docs/streams-and-lambda.md §2.1.2, §2.1.6, §2.1.7, §2.1.11 reject values out of range', () => {
    const { create } = setup();
    expect(lambdaError(() => create({ MaximumBatchingWindowInSeconds: 301 })).message).toBe(
      range(301, 'maximumBatchingWindowInSeconds', 'less than or equal to 300'),
    );
    expect(lambdaError(() => create({ ParallelizationFactor: 11 })).message).toBe(
      range(11, 'parallelizationFactor', 'less than or equal to 10'),
    );
    expect(lambdaError(() => create({ ParallelizationFactor: 0 })).message).toBe(
      range(0, 'parallelizationFactor', 'greater than or equal to 1'),
    );
    expect(lambdaError(() => create({ MaximumRetryAttempts: -2 })).message).toBe(
      range(-2, 'maximumRetryAttempts', 'greater than or equal to -1'),
    );
    expect(lambdaError(() => create({ MaximumRetryAttempts: 10_001 })).message).toBe(
      range(10_001, 'maximumRetryAttempts', 'less than or equal to 10000'),
    );
    expect(lambdaError(() => create({ TumblingWindowInSeconds: 901 })).message).toBe(
      range(901, 'tumblingWindowInSeconds', 'less than or equal to 900'),
    );
  });

  it('reports every constraint violation of a request together', () => {
    const { create } = setup();
    expect(lambdaError(() => create({ BatchSize: 0, ParallelizationFactor: 11 })).message).toBe(
      "2 validation errors detected: Value '0' at 'batchSize' failed to satisfy constraint: Member must have value greater than or equal to 1; Value '11' at 'parallelizationFactor' failed to satisfy constraint: Member must have value less than or equal to 10",
    );
  });

  it('docs/streams-and-lambda.md §2.1.8 takes MaximumRecordAgeInSeconds -1 or 60..604,800 and refuses 0..59', () => {
    const { f, create } = setup();
    expect(lambdaError(() => create({ MaximumRecordAgeInSeconds: 59 }))).toMatchObject({
      name: 'InvalidParameterValueException',
      message: 'MaximumRecordAgeInSeconds must be either -1 (forever) or between 60 and 604800 (inclusive)',
      body: { Type: 'User' },
    });
    expect(lambdaError(() => create({ MaximumRecordAgeInSeconds: 0 })).name).toBe(
      'InvalidParameterValueException',
    );
    expect(lambdaError(() => create({ MaximumRecordAgeInSeconds: 604_801 })).name).toBe(
      'ValidationException',
    );
    const uuid = create({ MaximumRecordAgeInSeconds: 60 }).UUID;
    f.manager.delete(uuid);
    expect(create({ MaximumRecordAgeInSeconds: 604_800 }).MaximumRecordAgeInSeconds).toBe(604_800);
  });

  it('docs/streams-and-lambda.md §2.1.4 requires TRIM_HORIZON or LATEST: AT_TIMESTAMP is refused for DynamoDB', () => {
    const { f, create } = setup();
    expect(
      lambdaError(() => create({ StartingPosition: 'AT_TIMESTAMP', StartingPositionTimestamp: 1 })),
    ).toMatchObject({
      name: 'InvalidParameterValueException',
      message: `Unsupported starting position for arn type: ${f.streamArn}`,
    });
    expect(lambdaError(() => create({ StartingPosition: '0' })).message).toBe(
      "1 validation error detected: Value '0' at 'startingPosition' failed to satisfy constraint: Member must satisfy enum value set: [LATEST, AT_TIMESTAMP, TRIM_HORIZON]",
    );
    expect(lambdaError(() => create({ StartingPositionTimestamp: 1 })).message).toBe(
      'Timestamp only valid with StartingPosition AT_TIMESTAMP',
    );
    expect(lambdaError(() => create({ StartingPosition: undefined })).name).toBe(
      'InvalidParameterValueException',
    );
  });

  it('docs/streams-and-lambda.md §2.1.10 takes FunctionResponseTypes ["ReportBatchItemFailures"] only', () => {
    const { create } = setup();
    expect(lambdaError(() => create({ FunctionResponseTypes: ['Foo'] })).message).toBe(
      "1 validation error detected: Value '[Foo]' at 'functionResponseTypes' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value set: [ReportBatchItemFailures]]",
    );
    expect(create({ FunctionResponseTypes: ['ReportBatchItemFailures'] }).FunctionResponseTypes).toEqual([
      'ReportBatchItemFailures',
    ]);
  });

  it('docs/streams-and-lambda.md §2.1.12 takes OnFailure only, to SQS, SNS or S3; an empty Destination removes it', () => {
    const { f, create } = setup();
    expect(
      lambdaError(() =>
        create({ DestinationConfig: { OnSuccess: { Destination: 'arn:aws:sqs:us-east-1:0:q' } } }),
      ),
    ).toMatchObject({ name: 'InvalidParameterValueException' });
    const lambdaArn = 'arn:aws:lambda:us-east-1:000000000000:function:other';
    expect(
      lambdaError(() => create({ DestinationConfig: { OnFailure: { Destination: lambdaArn } } })).message,
    ).toBe(
      `The provided destination config DestinationConfig(onSuccess=null, onFailure=OnFailure(destination=${lambdaArn})) is invalid.`,
    );
    const queue = 'arn:aws:sqs:us-east-1:000000000000:dlq';
    const { UUID, DestinationConfig } = create({ DestinationConfig: { OnFailure: { Destination: queue } } });
    expect(DestinationConfig).toEqual({ OnFailure: { Destination: queue } });
    const updated = f.manager.update({ UUID, DestinationConfig: { OnFailure: { Destination: '' } } });
    expect(updated.DestinationConfig).toEqual({ OnFailure: {} });
    for (const destination of ['arn:aws:sns:us-east-1:000000000000:topic', 'arn:aws:s3:::bucket'])
      expect(
        f.manager.update({ UUID, DestinationConfig: { OnFailure: { Destination: destination } } })
          .DestinationConfig,
      ).toEqual({ OnFailure: { Destination: destination } });
  });

  it('docs/streams-and-lambda.md §2.1.14 refuses a second mapping of the same stream and function (409), an unknown stream and function', () => {
    const { f, create } = setup();
    const { UUID } = create({});
    expect(lambdaError(() => create({}))).toEqual({
      name: 'ResourceConflictException',
      statusCode: 409,
      message: `The event source arn (" ${f.streamArn} ") and function (" fn ") provided mapping already exists. Please update or delete the existing mapping with UUID ${UUID}`,
      body: {
        Type: 'User',
        message: `The event source arn (" ${f.streamArn} ") and function (" fn ") provided mapping already exists. Please update or delete the existing mapping with UUID ${UUID}`,
      },
    });
    f.functions.define({ name: 'other', handler: async () => undefined });
    expect(create({ FunctionName: 'other' }).State).toBe('Creating');
    const unknown = `${f.streamArn.slice(0, -3)}999`;
    expect(lambdaError(() => create({ EventSourceArn: unknown }))).toMatchObject({
      name: 'InvalidParameterValueException',
      message: `Stream not found: ${unknown}`,
    });
    expect(lambdaError(() => create({ FunctionName: 'missing' }))).toMatchObject({
      name: 'ResourceNotFoundException',
      statusCode: 404,
      message: 'Function not found: arn:aws:lambda:us-east-1:000000000000:function:missing',
    });
  });

  it('docs/streams-and-lambda.md §3.1, §3.2 validates FilterCriteria: at most 5 filters of at most 4096 characters, valid patterns', () => {
    const { f, create } = setup();
    const filter = (Pattern: string) => ({ Pattern });
    const six = Array.from({ length: 6 }, () => filter('{"eventName":["INSERT"]}'));
    expect(lambdaError(() => create({ FilterCriteria: { Filters: six } })).name).toBe(
      'InvalidParameterValueException',
    );
    const long = `{"eventName":["${'x'.repeat(4100)}"]}`;
    expect(lambdaError(() => create({ FilterCriteria: { Filters: [filter(long)] } })).message).toMatch(
      /^1 validation error detected: Value '.*' at 'filterCriteria.filters.1.member.pattern' failed to satisfy constraint: Member must have length less than or equal to 4096$/,
    );
    for (const bad of [
      'single-string',
      '[{"eventName": ["INSERT"=123}]',
      '{"eventName":[{"wildcard":"I*"}]}',
    ])
      expect(lambdaError(() => create({ FilterCriteria: { Filters: [filter(bad)] } }))).toMatchObject({
        name: 'InvalidParameterValueException',
        message: 'Invalid filter pattern definition.',
      });
    const five = Array.from({ length: 5 }, () => filter('{"eventName":["INSERT"]}'));
    const { UUID, FilterCriteria } = create({ FilterCriteria: { Filters: five } });
    expect(FilterCriteria).toEqual({ Filters: five });
    expect(f.manager.update({ UUID, FilterCriteria: {} }).FilterCriteria).toBeUndefined();
  });
});

describe('Get, List, Update, Delete', () => {
  it('answers ResourceNotFoundException for an unknown UUID', () => {
    const { f } = setup();
    for (const run of [
      () => f.manager.get('nope'),
      () => f.manager.update({ UUID: 'nope', BatchSize: 1 }),
      () => f.manager.delete('nope'),
    ])
      expect(lambdaError(run)).toMatchObject({
        name: 'ResourceNotFoundException',
        message: 'The resource you requested does not exist.',
      });
  });

  it('lists by stream and by function, shows transitions, and deletes', () => {
    const { f, create } = setup();
    f.functions.define({ name: 'other', handler: async () => undefined });
    const a = create({}).UUID;
    const b = create({ FunctionName: 'arn:aws:lambda:us-east-1:000000000000:function:other' }).UUID;
    expect(f.manager.list().EventSourceMappings.map((m) => m.UUID)).toEqual([a, b]);
    expect(f.manager.list({ FunctionName: 'other' }).EventSourceMappings.map((m) => m.UUID)).toEqual([b]);
    expect(f.manager.list({ EventSourceArn: f.streamArn }).EventSourceMappings).toHaveLength(2);
    expect(f.manager.update({ UUID: a, Enabled: false }).State).toBe('Disabling');
    expect(f.manager.get(a).State).toBe('Disabled');
    expect(f.manager.update({ UUID: a, Enabled: true }).State).toBe('Enabling');
    expect(f.manager.update({ UUID: a, BatchSize: 5 })).toMatchObject({ State: 'Updating', BatchSize: 5 });
    expect(f.manager.get(a).State).toBe('Enabled');
    expect(f.manager.delete(b).State).toBe('Deleting');
    expect(f.manager.list().EventSourceMappings.map((m) => m.UUID)).toEqual([a]);
  });
});
