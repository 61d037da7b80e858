import type { _Record as StreamsApiRecord } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { wireMap } from './wireAttributes.js';

/**
 * The record a Lambda handler finds in `event.Records[i]`, built from what GetRecords returned:
 * the stream record plus `eventSourceARN`, `userIdentity` in lower camel case, images in wire JSON
 * (docs/streams-and-lambda.md §1.1.1, §1.2.8, §2.2.2). Members in the recorded order, the order eddy's own
 * mappings deliver them in (`streams/streamView.ts`), so a recording reads like a real event.
 * https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html
 */
export function lambdaRecordOf(record: StreamsApiRecord, streamArn: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  const body: Record<string, unknown> = {};
  // The SDK reads the wire's epoch seconds into a Date; Lambda events carry the seconds
  // (docs/streams-and-lambda.md §1.2.5).
  if (stream.ApproximateCreationDateTime !== undefined)
    body.ApproximateCreationDateTime = stream.ApproximateCreationDateTime.getTime() / 1000;
  body.Keys = wireMap(stream.Keys ?? {});
  if (stream.NewImage !== undefined) body.NewImage = wireMap(stream.NewImage);
  if (stream.OldImage !== undefined) body.OldImage = wireMap(stream.OldImage);
  if (stream.SequenceNumber !== undefined) body.SequenceNumber = stream.SequenceNumber;
  if (stream.SizeBytes !== undefined) body.SizeBytes = stream.SizeBytes;
  if (stream.StreamViewType !== undefined) body.StreamViewType = stream.StreamViewType;
  const out: Record<string, unknown> = {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: record.awsRegion,
    dynamodb: body,
  };
  const identity = record.userIdentity;
  if (identity !== undefined) out.userIdentity = { type: identity.Type, principalId: identity.PrincipalId };
  out.eventSourceARN = streamArn;
  return out as DynamoDBRecord;
}

/** ApproximateCreationDateTime of a Lambda record, epoch seconds (NaN when absent). */
export function creationSecondsOf(record: DynamoDBRecord): number {
  const seconds = record.dynamodb?.ApproximateCreationDateTime;
  return typeof seconds === 'number' ? seconds : Number.NaN;
}

/**
 * Recording order across shards: by ApproximateCreationDateTime, then by sequence number compared
 * as a big integer (docs/streams-and-lambda.md §1.2.6: never as text). Within a shard the read order stands.
 */
export function compareRecordedOrder(a: DynamoDBRecord, b: DynamoDBRecord): number {
  const byTime = creationSecondsOf(a) - creationSecondsOf(b);
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
  const x = sequenceOf(a);
  const y = sequenceOf(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function sequenceOf(record: DynamoDBRecord): bigint {
  const text = record.dynamodb?.SequenceNumber;
  return text !== undefined && /^\d+$/.test(text) ? BigInt(text) : 0n;
}
