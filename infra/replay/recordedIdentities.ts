import type { DynamoDBRecord } from 'aws-lambda';
import type { InvocationRecord } from '../../streams/mapping/index.js';

/** The members of a recorded record that name it rather than describe the change. */
const IDENTITY_MEMBERS = ['eventID', 'eventVersion', 'awsRegion', 'eventSourceARN'] as const;

interface RecordedIdentity {
  readonly record: DynamoDBRecord;
}

/**
 * Keeps the identity of recorded records across a replay. The replay's stream numbers its records
 * itself (sequence numbers and eventIDs are the stream's, docs/streams-and-lambda.md §1.1.5, §1.2.6), and the
 * mapping works with those; the handler, though, should see the records as they were recorded. So, at the
 * function's door: each record's eventID, eventVersion, awsRegion, eventSourceARN, SequenceNumber,
 * ApproximateCreationDateTime and userIdentity are put back as recorded, and the handler's
 * `batchItemFailures` (which name recorded sequence numbers, docs/streams-and-lambda.md §2.4.2) are
 * translated back to the replay's before the mapping reads them. Failure destinations get the same treatment,
 * except for the `shardId` of DDBStreamBatchInfo: it stays the replay's, since the records of one replay
 * shard may come from several recorded ones.
 *
 * @example
 * ```ts
 * identities.remember('100000000000000000001', recorded);
 * identities.restore(record);            // record.dynamodb.SequenceNumber === recorded's
 * ```
 */
export class RecordedIdentities {
  private readonly byReplaySequence = new Map<string, RecordedIdentity>();

  /** Links the replay's sequence number of a record to the recorded record. */
  remember(replaySequenceNumber: string, recorded: DynamoDBRecord): void {
    this.byReplaySequence.set(replaySequenceNumber, { record: recorded });
  }

  /** The recorded sequence number of a replay sequence number (itself when the file had none). */
  recordedSequenceNumber(replaySequenceNumber: string): string {
    return (
      this.byReplaySequence.get(replaySequenceNumber)?.record.dynamodb?.SequenceNumber ?? replaySequenceNumber
    );
  }

  /** The recorded stream ARN of a replay sequence number, if the file had one. */
  recordedStreamArn(replaySequenceNumber: string): string | undefined {
    return this.byReplaySequence.get(replaySequenceNumber)?.record.eventSourceARN;
  }

  /**
   * Puts a record's recorded identity back, in place (records are built afresh for every
   * invocation, so nothing else sees the change). Members the file left out keep the replay's.
   */
  restore(record: DynamoDBRecord): void {
    const body = record.dynamodb;
    const replaySequence = body?.SequenceNumber;
    const recorded =
      replaySequence === undefined ? undefined : this.byReplaySequence.get(replaySequence)?.record;
    if (recorded === undefined || body === undefined) return;
    const target = record as Record<string, unknown>;
    for (const member of IDENTITY_MEMBERS) {
      if (recorded[member] !== undefined) target[member] = recorded[member];
    }
    const recordedBody = recorded.dynamodb ?? {};
    if (recordedBody.SequenceNumber !== undefined) body.SequenceNumber = recordedBody.SequenceNumber;
    if (recordedBody.ApproximateCreationDateTime !== undefined)
      body.ApproximateCreationDateTime = recordedBody.ApproximateCreationDateTime;
    // An identity other than the TTL principal's cannot travel through the change log: put it back.
    // Member order as recorded (docs/streams-and-lambda.md §2.2.2): userIdentity before eventSourceARN.
    if (recorded.userIdentity !== undefined) {
      const arn = target.eventSourceARN;
      delete target.eventSourceARN;
      target.userIdentity = recorded.userIdentity;
      if (arn !== undefined) target.eventSourceARN = arn;
    }
  }

  /**
   * A handler's response with `batchItemFailures` naming replay sequence numbers again. The
   * response is copied, never changed; one that names unknown records stays as it is, and the
   * mapping fails the batch for it, as Lambda does (docs/streams-and-lambda.md §2.4.4).
   */
  responseForMapping(payload: unknown, recordedToReplay: ReadonlyMap<string, string>): unknown {
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return payload;
    const failures = (payload as { batchItemFailures?: unknown }).batchItemFailures;
    if (!Array.isArray(failures)) return payload;
    return {
      ...payload,
      batchItemFailures: failures.map((failure: unknown) => {
        const identifier = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
        if (typeof identifier !== 'string' || !recordedToReplay.has(identifier)) return failure;
        return { ...(failure as object), itemIdentifier: recordedToReplay.get(identifier) };
      }),
    };
  }

  /** An on-failure invocation record naming the recorded sequence numbers and stream. */
  restoreInvocationRecord(record: InvocationRecord): InvocationRecord {
    const info = record.DDBStreamBatchInfo;
    const start = info.startSequenceNumber;
    return {
      ...record,
      DDBStreamBatchInfo: {
        ...info,
        startSequenceNumber: this.recordedSequenceNumber(start),
        endSequenceNumber: this.recordedSequenceNumber(info.endSequenceNumber),
        streamArn: this.recordedStreamArn(start) ?? info.streamArn,
      },
    };
  }
}
