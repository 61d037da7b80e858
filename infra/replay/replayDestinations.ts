import type { DynamoDBRecord } from 'aws-lambda';
import type {
  DestinationResolver,
  FailureDestination,
  FailureNotice,
  InvocationRecord,
} from '../../streams/mapping/index.js';
import type { RecordedIdentities } from './recordedIdentities.js';

/** One discarded batch, as the on-failure destination received it. */
export interface DestinationDelivery {
  /** The destination ARN (`DestinationConfig.OnFailure.Destination`). */
  readonly destination: string;
  /**
   * The invocation record (docs/streams-and-lambda.md §2.5.1), naming the recorded sequence numbers and
   * stream.
   */
  readonly record: InvocationRecord;
  /**
   * The discarded records: S3 destinations receive them (docs/streams-and-lambda.md §2.5.4), queues and
   * topics do not.
   */
  readonly payload?: { readonly Records: readonly DynamoDBRecord[] };
}

/**
 * On-failure destinations of a replay: the SQS, SNS and S3 ARNs Lambda accepts
 * (docs/streams-and-lambda.md §2.1.12), kept in memory for the report. A replay is a rehearsal, so nothing
 * reaches the project's destination files (`destinationsDirectory`) or a real queue.
 *
 * @example
 * ```ts
 * const destinations = new ReplayDestinations(identities);
 * new MappingManager({ changeLog, functions, destinations });
 * destinations.deliveries; // after the replay
 * ```
 */
export class ReplayDestinations implements DestinationResolver {
  readonly deliveries: DestinationDelivery[] = [];

  constructor(private readonly identities: RecordedIdentities) {}

  resolve(arn: string): FailureDestination | undefined {
    const service = /^arn:aws[a-z-]*:(sqs|sns|s3):/.exec(arn)?.[1];
    if (service === undefined) return undefined;
    return {
      send: (notice: FailureNotice) => {
        const record = this.identities.restoreInvocationRecord(notice.record);
        if (service !== 's3') {
          this.deliveries.push({ destination: arn, record });
          return;
        }
        const { Records } = notice.payload();
        for (const each of Records) this.identities.restore(each);
        this.deliveries.push({ destination: arn, record, payload: { Records } });
      },
    };
  }
}
