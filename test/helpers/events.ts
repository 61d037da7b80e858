import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { ChangeEvent } from '../../core/changeEvent.js';

/**
 * Factories for Lambda-shaped test inputs: stream records built from the engine's own change
 * events (NEW_AND_OLD_IMAGES), a batch event, and a Lambda context.
 */
let sequence = 100_000_000_000_000_000_000n;

export function recordOf(event: ChangeEvent, streamLabel = '2026-01-01T00:00:00.000'): DynamoDBRecord {
  sequence += 1n;
  const dynamodb: DynamoDBRecord['dynamodb'] = {
    ApproximateCreationDateTime: Math.floor(event.at / 1000),
    Keys: event.keys as never,
    SequenceNumber: sequence.toString(),
    SizeBytes: event.sizeBytes,
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  };
  if (event.newImage) dynamodb.NewImage = event.newImage as never;
  if (event.oldImage) dynamodb.OldImage = event.oldImage as never;
  return {
    eventID: event.sequence.toString(16).padStart(32, '0'),
    eventName: event.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: event.table.region,
    dynamodb,
    eventSourceARN: `${event.table.tableArn}/stream/${streamLabel}`,
  };
}

export function streamEvent(records: DynamoDBRecord[]): DynamoDBStreamEvent {
  return { Records: records };
}

export function lambdaContext(functionName = 'test-function'): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '128',
    awsRequestId: '00000000-0000-4000-8000-000000000000',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 60_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
