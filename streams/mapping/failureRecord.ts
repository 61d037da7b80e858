import type { DynamoDBRecord } from 'aws-lambda';

/**
 * The invocation record Lambda sends to an on-failure destination when it discards a batch
 * (docs/streams-and-lambda.md §2.5.1): request and response context and the batch's position in the stream,
 * never the records themselves. Member order as recorded.
 * https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html
 */
export type FailureCondition = 'RetryAttemptsExhausted' | 'RecordAgeExceeded';

export interface InvocationRecord {
  readonly requestContext: {
    readonly requestId: string;
    readonly functionArn: string;
    readonly condition: FailureCondition;
    readonly approximateInvokeCount: number;
  };
  /** Absent when records aged out (docs/streams-and-lambda.md §2.5.3). */
  readonly responseContext?: {
    readonly statusCode: number;
    readonly executedVersion: string;
    /**
     * `Unhandled` when the function errored, null for a response counted as a failure
     * (docs/streams-and-lambda.md §2.5.2).
     */
    readonly functionError: 'Unhandled' | null;
  };
  readonly version: '1.0';
  /** When the batch was discarded: ISO-8601 with milliseconds. */
  readonly timestamp: string;
  readonly DDBStreamBatchInfo: {
    readonly shardId: string;
    readonly startSequenceNumber: string;
    readonly endSequenceNumber: string;
    /** ISO-8601 to the second (the records' ApproximateCreationDateTime). */
    readonly approximateArrivalOfFirstRecord: string;
    readonly approximateArrivalOfLastRecord: string;
    readonly batchSize: number;
    readonly streamArn: string;
  };
}

export interface InvocationRecordInit {
  readonly requestId: string;
  readonly functionArn: string;
  readonly condition: FailureCondition;
  readonly invokeCount: number;
  /** The last invocation's function error; absent for records that aged out. */
  readonly functionError?: 'Unhandled' | null;
  /** When the batch was discarded, epoch ms. */
  readonly at: number;
  readonly shardId: string;
  readonly streamArn: string;
  /** First and last sequence numbers and commit times (epoch ms) of the discarded records. */
  readonly first: { readonly sequenceNumber: string; readonly at: number };
  readonly last: { readonly sequenceNumber: string; readonly at: number };
  readonly batchSize: number;
}

/** ISO-8601 to the second with `Z`, as DDBStreamBatchInfo writes arrival times. */
export function isoSeconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export function invocationRecord(init: InvocationRecordInit): InvocationRecord {
  const record: Record<string, unknown> = {
    requestContext: {
      requestId: init.requestId,
      functionArn: init.functionArn,
      condition: init.condition,
      approximateInvokeCount: init.invokeCount,
    },
  };
  if (init.condition !== 'RecordAgeExceeded' && init.functionError !== undefined) {
    record.responseContext = {
      statusCode: 200,
      executedVersion: '$LATEST',
      functionError: init.functionError,
    };
  }
  record.version = '1.0';
  record.timestamp = new Date(init.at).toISOString();
  record.DDBStreamBatchInfo = {
    shardId: init.shardId,
    startSequenceNumber: init.first.sequenceNumber,
    endSequenceNumber: init.last.sequenceNumber,
    approximateArrivalOfFirstRecord: isoSeconds(init.first.at),
    approximateArrivalOfLastRecord: isoSeconds(init.last.at),
    batchSize: init.batchSize,
    streamArn: init.streamArn,
  };
  return record as unknown as InvocationRecord;
}

/** One discarded batch on its way to the on-failure destination. */
export interface FailureNotice {
  readonly record: InvocationRecord;
  readonly mappingUuid: string;
  readonly shardId: string;
  /**
   * The invocation event of the discarded records (S3 destinations add it as `payload`,
   * docs/streams-and-lambda.md §2.5.4).
   */
  payload(): { Records: DynamoDBRecord[] };
}

/** An on-failure destination (an SQS queue, SNS topic or S3 bucket, docs/streams-and-lambda.md §2.1.12). */
export interface FailureDestination {
  send(notice: FailureNotice): Promise<void> | void;
}

/** Finds the destination behind an `OnFailure.Destination` ARN. */
export interface DestinationResolver {
  resolve(arn: string): FailureDestination | undefined;
}
