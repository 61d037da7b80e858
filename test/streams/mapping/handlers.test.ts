import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { keysOf, mappingFixture } from './helpers.js';

/**
 * Handlers written with middy and with Powertools' batch utility run unchanged under a mapping
 * (docs/streams-and-lambda.md §4.1–§4.6), and their responses mean what they mean in AWS
 * (docs/streams-and-lambda.md §2.3, §2.4).
 */

const RBIF = { FunctionResponseTypes: ['ReportBatchItemFailures'] };

describe('middy handlers (docs/streams-and-lambda.md §4.1–§4.3)', () => {
  it('runs middlewares around the handler with a Lambda context; a partial response checkpoints at the failure', async () => {
    const f = mappingFixture();
    const seen: string[][] = [];
    const hooks: string[] = [];
    let failing = true;
    const contexts: Context[] = [];
    const remaining: number[] = [];
    const lambdaHandler = async (
      event: DynamoDBStreamEvent,
      context: Context,
    ): Promise<DynamoDBBatchResponse> => {
      contexts.push(context);
      remaining.push(context.getRemainingTimeInMillis());
      seen.push(keysOf(event) as string[]);
      // In order: the failed record and every later one are reported.
      const index = event.Records.findIndex((record) => failing && record.dynamodb!.Keys!.pk!.S === 'c');
      return {
        batchItemFailures:
          index === -1
            ? []
            : event.Records.slice(index).map((record) => ({
                itemIdentifier: record.dynamodb!.SequenceNumber!,
              })),
      };
    };
    const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
      .use([
        { before: () => void hooks.push('first before'), after: () => void hooks.push('first after') },
        { before: () => void hooks.push('second before'), after: () => void hooks.push('second after') },
      ])
      .handler(lambdaHandler);
    f.map({ name: 'middy-fn', handler, timeout: 30 }, RBIF);
    for (const key of ['a', 'b', 'c', 'd']) f.put(key);
    await f.engine.settled();
    failing = false;
    await f.run();
    expect(seen).toEqual([
      ['a', 'b', 'c', 'd'],
      ['c', 'd'],
    ]);
    expect(hooks.slice(0, 4)).toEqual(['first before', 'second before', 'second after', 'first after']);
    expect(contexts[0]).toMatchObject({
      functionName: 'middy-fn',
      functionVersion: '$LATEST',
      invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:middy-fn',
      memoryLimitInMB: '128',
      logGroupName: '/aws/lambda/middy-fn',
    });
    expect(contexts[0]!.awsRequestId).not.toBe(contexts[1]!.awsRequestId);
    expect(remaining[0]).toBe(30_000);
  });

  it('docs/streams-and-lambda.md §4.3 an error no onError hook answers fails the whole batch, which is retried', async () => {
    const f = mappingFixture();
    let calls = 0;
    const handler = middy<DynamoDBStreamEvent, void>()
      .use({ onError: () => undefined })
      .handler(async () => {
        calls++;
        if (calls === 1) throw new Error('downstream unavailable');
      });
    f.map({ name: 'fn', handler });
    f.put('a');
    await f.run();
    expect(calls).toBe(2);
    expect(f.functions.invocations('fn')[0]!.error).toEqual({
      errorType: 'Error',
      errorMessage: 'downstream unavailable',
      // Node.js runtimes report the stack line by line ("Node.js Lambda function errors").
      trace: expect.arrayContaining(['Error: downstream unavailable']),
    });
  });
});

describe('Powertools BatchProcessor (docs/streams-and-lambda.md §4.5, §4.6)', () => {
  function powertools(
    fail: (record: DynamoDBRecord) => boolean,
    options: { processInParallel?: boolean } = {},
  ) {
    const processor = new BatchProcessor(EventType.DynamoDBStreams);
    const handled: string[] = [];
    const recordHandler = async (record: DynamoDBRecord) => {
      const key = record.dynamodb!.Keys!.pk!.S!;
      if (fail(record)) throw new Error(`cannot handle ${key}`);
      handled.push(key);
    };
    const handler = async (event: DynamoDBStreamEvent, context: Context) =>
      processPartialResponse(event, recordHandler, processor, { context, ...options });
    return { handler, handled };
  }

  it('docs/streams-and-lambda.md §4.5 reports failed records by sequence number; the mapping retries from the lowest', async () => {
    const f = mappingFixture();
    let attempts = 0;
    const { handler, handled } = powertools(
      (record) => record.dynamodb!.Keys!.pk!.S === 'b' && ++attempts === 1,
      {
        processInParallel: false,
      },
    );
    f.map({ name: 'pt', handler }, RBIF);
    for (const key of ['a', 'b', 'c']) f.put(key);
    await f.run();
    // Powertools reports b only; Lambda retries from b on, so c runs again (at least once).
    expect(handled).toEqual(['a', 'c', 'b', 'c']);
    const first = f.functions.invocations('pt')[0]!;
    const b = (first.event as DynamoDBStreamEvent).Records[1]!.dynamodb!.SequenceNumber;
    expect(first.result).toEqual({ batchItemFailures: [{ itemIdentifier: b }] });
    expect(f.manager.inspect()[0]).toMatchObject({ recordsProcessed: 3, retries: 1 });
  });

  it('docs/streams-and-lambda.md §4.5 answers {batchItemFailures: []} when all succeed: invoked once', async () => {
    const f = mappingFixture();
    const { handler } = powertools(() => false);
    f.map({ name: 'pt', handler }, RBIF);
    f.put('a');
    f.put('b');
    await f.run();
    expect(f.functions.invocations('pt').map((invocation) => invocation.result)).toEqual([
      { batchItemFailures: [] },
    ]);
  });

  it('docs/streams-and-lambda.md §4.6 fails the invocation with FullBatchFailureError when every record fails; the batch is retried', async () => {
    const f = mappingFixture();
    let failing = true;
    const { handler, handled } = powertools(() => failing);
    f.map({ name: 'pt', handler }, RBIF);
    f.put('a');
    await f.engine.settled();
    expect(f.functions.invocations('pt')[0]!.error).toMatchObject({
      errorType: 'FullBatchFailureError',
      errorMessage: expect.stringContaining('All records failed processing.'),
    });
    failing = false;
    await f.run();
    expect(handled).toEqual(['a']);
  });
});
