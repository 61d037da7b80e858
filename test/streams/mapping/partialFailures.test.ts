import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { keysOf, mappingFixture, recorder } from './helpers.js';

/**
 * ReportBatchItemFailures (docs/streams-and-lambda.md §2.4) and BisectBatchOnFunctionError
 * (docs/streams-and-lambda.md §2.1.9, §2.4.6).
 */

const DLQ = 'arn:aws:sqs:us-east-1:000000000000:dlq';
const sequenceOf = (event: DynamoDBStreamEvent, key: string) =>
  event.Records.find((record) => record.dynamodb!.Keys!.pk!.S === key)!.dynamodb!.SequenceNumber!;

/** Reports the records whose key is in `failing` as failed. */
function reporting(failing: Set<string>) {
  return recorder((event) => ({
    batchItemFailures: keysOf(event)
      .filter((key) => failing.has(key!))
      .map((key) => ({ itemIdentifier: sequenceOf(event, key!) })),
  }));
}

describe('ReportBatchItemFailures (docs/streams-and-lambda.md §2.4)', () => {
  it('docs/streams-and-lambda.md §2.4.2 checkpoints at the lowest failed record and retries from it, inclusive', async () => {
    const f = mappingFixture();
    const failing = new Set(['c', 'e']);
    const { events, handler } = reporting(failing);
    f.map({ name: 'fn', handler }, { FunctionResponseTypes: ['ReportBatchItemFailures'] });
    for (const key of ['a', 'b', 'c', 'd', 'e']) f.put(key);
    await f.engine.settled();
    failing.clear();
    await f.run();
    expect(events.map(keysOf)).toEqual([
      ['a', 'b', 'c', 'd', 'e'],
      ['c', 'd', 'e'],
    ]);
    expect(f.manager.inspect()[0]).toMatchObject({ recordsProcessed: 5, retries: 1 });
  });

  it('docs/streams-and-lambda.md §2.4.3 treats each success response as complete success: invoked once', async () => {
    const responses: unknown[] = [
      { batchItemFailures: [] },
      { batchItemFailures: null },
      {},
      null,
      undefined,
      [],
      '',
    ];
    for (const response of responses) {
      const f = mappingFixture();
      const { events, handler } = recorder(() => response);
      f.map({ name: 'fn', handler }, { FunctionResponseTypes: ['ReportBatchItemFailures'] });
      f.put('a');
      f.put('b');
      await f.run();
      expect(events, JSON.stringify(response)).toHaveLength(1);
    }
  });

  it('docs/streams-and-lambda.md §2.4.4 treats invalid responses as whole-batch failures: 1 + MaximumRetryAttempts invocations, then the DLQ with functionError null', async () => {
    const invalid: ((event: DynamoDBStreamEvent) => unknown)[] = [
      () => ({ batchItemFailures: [{ itemIdentifier: '' }] }),
      () => ({ batchItemFailures: [{ itemIdentifier: null }] }),
      () => ({ batchItemFailures: [{ foo: 'bar' }] }),
      () => ({ foo: [{ itemIdentifier: 'x' }] }),
      () => ({ batchItemFailures: [{ itemIdentifier: '123' }] }),
    ];
    for (const respond of invalid) {
      const f = mappingFixture();
      const { events, handler } = recorder(respond);
      f.map(
        { name: 'fn', handler },
        {
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          MaximumRetryAttempts: 3,
          DestinationConfig: { OnFailure: { Destination: DLQ } },
        },
      );
      f.put('a');
      await f.run();
      expect(events).toHaveLength(4);
      const [record] = f.destinations.queue(DLQ).records();
      expect(record!.requestContext).toMatchObject({
        condition: 'RetryAttemptsExhausted',
        approximateInvokeCount: 4,
      });
      expect(record!.responseContext).toEqual({
        statusCode: 200,
        executedVersion: '$LATEST',
        functionError: null,
      });
    }
  });

  it('docs/streams-and-lambda.md §2.4.5 reproduces the recording: earlier records once, the failing one until the count reaches 4, then only it to the DLQ', async () => {
    const f = mappingFixture();
    const { events, handler } = reporting(new Set(['testId5']));
    f.map(
      { name: 'fn', handler },
      {
        BatchSize: 3,
        MaximumRetryAttempts: 3,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        DestinationConfig: { OnFailure: { Destination: DLQ } },
      },
    );
    for (let i = 0; i < 6; i++) f.put(`testId${i}`);
    await f.run();
    const delivered = events.flatMap(keysOf);
    for (let i = 0; i < 5; i++) expect(delivered.filter((key) => key === `testId${i}`)).toHaveLength(1);
    expect(delivered.filter((key) => key === 'testId5')).toHaveLength(4);
    const [record] = f.destinations.queue(DLQ).records();
    const failed = events.at(-1)!.Records[0]!.dynamodb!.SequenceNumber;
    expect(record!.requestContext.approximateInvokeCount).toBe(4);
    expect(record!.DDBStreamBatchInfo).toMatchObject({
      batchSize: 1,
      startSequenceNumber: failed,
      endSequenceNumber: failed,
    });
  });

  it('docs/streams-and-lambda.md §2.4.6 bisects a thrown batch whatever ReportBatchItemFailures says', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder((event) => {
      if (keysOf(event).includes('c')) throw new Error('poison');
      return undefined;
    });
    f.map(
      { name: 'fn', handler },
      {
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 0,
        DestinationConfig: { OnFailure: { Destination: DLQ } },
      },
    );
    for (const key of ['a', 'b', 'c', 'd']) f.put(key);
    await f.run();
    expect(events.map(keysOf)).toEqual([['a', 'b', 'c', 'd'], ['a', 'b'], ['c', 'd'], ['c'], ['d']]);
    expect(
      f.destinations
        .queue(DLQ)
        .records()
        .map((record) => record.DDBStreamBatchInfo.batchSize),
    ).toEqual([1]);
  });

  it('docs/streams-and-lambda.md §2.4.6 with bisect on, a partial response splits at the returned record and retries the rest only', async () => {
    const f = mappingFixture();
    const failing = new Set(['c']);
    const { events, handler } = reporting(failing);
    f.map(
      { name: 'fn', handler },
      { FunctionResponseTypes: ['ReportBatchItemFailures'], BisectBatchOnFunctionError: true },
    );
    for (const key of ['a', 'b', 'c', 'd']) f.put(key);
    await f.engine.settled();
    failing.clear();
    await f.run();
    expect(events.map(keysOf)).toEqual([
      ['a', 'b', 'c', 'd'],
      ['c', 'd'],
    ]);
  });
});

describe('BisectBatchOnFunctionError (docs/streams-and-lambda.md §2.1.9)', () => {
  it('splits failed batches down to the bad record without consuming retries; the batch size stays', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder((event) => {
      if (keysOf(event).includes('k5')) throw new Error('poison');
      return undefined;
    });
    f.map(
      { name: 'fn', handler },
      {
        BatchSize: 8,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 1,
        DestinationConfig: { OnFailure: { Destination: DLQ } },
      },
    );
    for (let i = 0; i < 8; i++) f.put(`k${i}`);
    await f.run();
    // 8 → 4 + 4 → (k4..k7) 2 + 2 → (k4,k5) 1 + 1: k5 alone is tried 1 + 1 times.
    expect(events.map(keysOf)).toEqual([
      ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'],
      ['k0', 'k1', 'k2', 'k3'],
      ['k4', 'k5', 'k6', 'k7'],
      ['k4', 'k5'],
      ['k4'],
      ['k5'],
      ['k5'],
      ['k6', 'k7'],
    ]);
    const [record] = f.destinations.queue(DLQ).records();
    expect(record!.requestContext.approximateInvokeCount).toBe(2);
    expect(record!.DDBStreamBatchInfo.batchSize).toBe(1);
    for (let i = 0; i < 8; i++) f.put(`n${i}`);
    await f.run();
    expect(events.at(-1)!.Records).toHaveLength(8);
  });
});
