import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { failureObjectKey } from '../../../infra/destinations/localBucket.js';
import { LocalDestinations } from '../../../infra/destinations/localDestinations.js';
import { START } from '../helpers.js';
import { keysOf, mappingFixture, recorder } from './helpers.js';

/**
 * The on-failure invocation record, field by field (docs/streams-and-lambda.md §2.5), and the local
 * destinations.
 */

const SQS = 'arn:aws:sqs:us-east-1:000000000000:dlq';
const SNS = 'arn:aws:sns:us-east-1:000000000000:failures';
const S3 = 'arn:aws:s3:::failure-bucket';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ISO_S = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function failing(destination: string, retries = 1) {
  const f = mappingFixture();
  const { events, handler } = recorder((event) => {
    if (keysOf(event).includes('bad')) throw new Error('poison');
    return undefined;
  });
  const uuid = f.map(
    { name: 'fn', handler },
    {
      BatchSize: 2,
      MaximumRetryAttempts: retries,
      DestinationConfig: { OnFailure: { Destination: destination } },
    },
  );
  return { f, events, uuid };
}

describe('on-failure invocation record (docs/streams-and-lambda.md §2.5)', () => {
  it('docs/streams-and-lambda.md §2.5.1, §2.5.2 has the recorded shape and values for a function error', async () => {
    const { f, events } = failing(SQS);
    f.put('ok');
    f.put('bad');
    await f.run();
    const [record] = f.destinations.queue(SQS).records();
    const failed = events.at(-1)!;
    const invocation = f.functions.invocations('fn').at(-1)!;
    const shardId = f.changeLog.stream(f.streamArn)!.shards[0]!.id;
    expect(Object.keys(record!)).toEqual([
      'requestContext',
      'responseContext',
      'version',
      'timestamp',
      'DDBStreamBatchInfo',
    ]);
    expect(Object.keys(record!.requestContext)).toEqual([
      'requestId',
      'functionArn',
      'condition',
      'approximateInvokeCount',
    ]);
    expect(record!.requestContext).toEqual({
      requestId: invocation.requestId,
      functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:fn',
      condition: 'RetryAttemptsExhausted',
      approximateInvokeCount: 2,
    });
    expect(record!.responseContext).toEqual({
      statusCode: 200,
      executedVersion: '$LATEST',
      functionError: 'Unhandled',
    });
    expect(record!.version).toBe('1.0');
    expect(record!.timestamp).toMatch(ISO_MS);
    // Discarded when the retry (1 s backoff) failed.
    expect(record!.timestamp).toBe(new Date(START + 1000).toISOString());
    expect(Object.keys(record!.DDBStreamBatchInfo)).toEqual([
      'shardId',
      'startSequenceNumber',
      'endSequenceNumber',
      'approximateArrivalOfFirstRecord',
      'approximateArrivalOfLastRecord',
      'batchSize',
      'streamArn',
    ]);
    expect(record!.DDBStreamBatchInfo).toEqual({
      shardId,
      startSequenceNumber: failed.Records[0]!.dynamodb!.SequenceNumber,
      endSequenceNumber: failed.Records[1]!.dynamodb!.SequenceNumber,
      approximateArrivalOfFirstRecord: new Date(START).toISOString().replace('.000Z', 'Z'),
      approximateArrivalOfLastRecord: new Date(START).toISOString().replace('.000Z', 'Z'),
      batchSize: 2,
      streamArn: f.streamArn,
    });
    expect(record!.DDBStreamBatchInfo.approximateArrivalOfFirstRecord).toMatch(ISO_S);
    expect(shardId).toMatch(/^shardId-\d{20}-[0-9a-f]{8}$/);
  });

  it('docs/streams-and-lambda.md §2.5.3 omits responseContext for RecordAgeExceeded (and counts the invocations made)', async () => {
    const f = mappingFixture();
    f.map(
      { name: 'fn', handler: () => Promise.reject(new Error('down')) },
      { MaximumRecordAgeInSeconds: 60, DestinationConfig: { OnFailure: { Destination: SQS } } },
    );
    f.put('a');
    await f.run('20s');
    const [record] = f.destinations.queue(SQS).records();
    expect(Object.keys(record!)).toEqual(['requestContext', 'version', 'timestamp', 'DDBStreamBatchInfo']);
    expect(record!.requestContext.condition).toBe('RecordAgeExceeded');
    expect(record!.requestContext.approximateInvokeCount).toBeGreaterThan(1);
  });

  it('docs/streams-and-lambda.md §2.5.4 sends the same document to SNS and, with the event as an escaped JSON payload, to S3 under the documented key', async () => {
    for (const destination of [SNS, S3]) {
      const { f, uuid } = failing(destination, 0);
      f.put('bad');
      await f.run();
      if (destination === SNS) {
        expect(f.destinations.queue(SNS).records()[0]!.requestContext.condition).toBe(
          'RetryAttemptsExhausted',
        );
        continue;
      }
      const bucket = f.destinations.bucket(S3);
      const [key] = bucket.keys();
      const shardId = f.changeLog.stream(f.streamArn)!.shards[0]!.id;
      expect(key).toMatch(
        new RegExp(`^aws/lambda/${uuid}/${shardId}/2026/01/01/2026-01-01T12\\.00\\.00-[0-9a-f-]{36}$`),
      );
      const [document] = bucket.documents();
      expect(typeof document!.payload).toBe('string');
      const payload = JSON.parse(document!.payload) as DynamoDBStreamEvent;
      expect(payload.Records.map((record) => record.dynamodb!.Keys!.pk!.S)).toEqual(['bad']);
      expect(document!.DDBStreamBatchInfo.batchSize).toBe(1);
    }
  });

  it('builds S3 keys from the record timestamp in UTC', () => {
    expect(failureObjectKey('u-1', 'shardId-1', '2026-03-04T05:06:07.890Z', 'r')).toBe(
      'aws/lambda/u-1/shardId-1/2026/03/04/2026-03-04T05.06.07-r',
    );
  });

  it('sends nothing when no destination is configured, and filtered records never go to one', async () => {
    const f = mappingFixture();
    f.map(
      { name: 'fn', handler: () => Promise.reject(new Error('down')) },
      {
        MaximumRetryAttempts: 0,
        FilterCriteria: { Filters: [{ Pattern: '{"dynamodb":{"NewImage":{"pk":{"S":["bad"]}}}}' }] },
        DestinationConfig: { OnFailure: { Destination: SQS } },
      },
    );
    f.put('filtered');
    f.put('bad');
    await f.run();
    expect(
      f.destinations
        .queue(SQS)
        .records()
        .map((record) => record.DDBStreamBatchInfo.batchSize),
    ).toEqual([1]);
    expect(f.manager.inspect()[0]).toMatchObject({
      recordsFiltered: 1,
      recordsFailed: 1,
      destinationCount: 1,
    });
  });
});

describe('local destinations', () => {
  it('persists queues as JSON lines (the exact record) and reads them back; buckets as files', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'eddy-destinations-'));
    directories.push(directory);
    const destinations = new LocalDestinations({ directory });
    const f = mappingFixture({ destinations });
    const down = () => Promise.reject(new Error('down'));
    for (const [name, destination] of [
      ['to-queue', SQS],
      ['to-bucket', S3],
    ] as const)
      f.map(
        { name, handler: down },
        { MaximumRetryAttempts: 0, DestinationConfig: { OnFailure: { Destination: destination } } },
      );
    f.put('a');
    await f.engine.settled();
    const lines = readFileSync(join(directory, 'sqs', 'dlq.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual(destinations.queue(SQS).records()[0]);
    expect(new LocalDestinations({ directory }).queue(SQS).records()).toEqual(
      destinations.queue(SQS).records(),
    );
    const bucketRoot = join(directory, 's3', 'failure-bucket', 'aws', 'lambda');
    expect(readdirSync(bucketRoot)).toHaveLength(1);
  });
});
