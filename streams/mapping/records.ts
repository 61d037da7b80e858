import type { DynamoDBRecord } from 'aws-lambda';
import type { ChangeEvent } from '../../core/changeEvent.js';
import { formatSequenceNumber } from '../sequenceNumber.js';
import { type RecordSource, showsNewImage, showsOldImage, toDynamoDBRecord } from '../streamView.js';

/**
 * Records on their way through a mapping. A pending record holds the change, not the Lambda
 * record: the record is built when a batch is invoked, afresh for every attempt, because a
 * handler may mutate its event (middy's event-normalizer rewrites images in place) and a retry
 * must see what Lambda would send again. A record built for filtering is reused once.
 *
 * It is also what a built-in function's event carries as is (`MappingRuntime.eventOf`): its
 * `change` and `sequenceNumber` are the gsi-maintainer's `FeedChange`, so a batch goes to the
 * function without an object made per change.
 */
export class PendingRecord {
  /** A record built for filtering, handed to the first invocation. */
  built: DynamoDBRecord | undefined = undefined;
  /** Slot in the shard's outstanding-records tracker. */
  slot = -1;

  constructor(
    /** Position in its log (the ordinal of its sequence number, `sequenceNumber.ts`). */
    readonly ordinal: number,
    readonly event: ChangeEvent,
    /** Estimated bytes in the invocation payload (docs/streams-and-lambda.md §2.2.5). */
    readonly bytes: number,
  ) {}

  /** The change itself. */
  get change(): ChangeEvent {
    return this.event;
  }

  get sequenceNumber(): string {
    return formatSequenceNumber(this.ordinal);
  }
}

/**
 * The JSON around a record's Keys and images, measured on a recorded MODIFY
 * (docs/streams-and-lambda.md §2.2.2).
 */
const RECORD_OVERHEAD = 300;

/**
 * The payload bytes of a record, estimated from the stored item texts (exact for ASCII content;
 * JSON text counts UTF-16 units, so content with multi-byte characters is under-counted by their
 * extra bytes). Building and serialising every record to measure it would cost more than the
 * invocation itself (bench/mappings.ts).
 */
export function estimateBytes(event: ChangeEvent, source: RecordSource): number {
  let bytes = RECORD_OVERHEAD + (source.eventSourceArn?.length ?? 0) + event.keysSize + 40;
  if (event.newItem !== undefined && showsNewImage(source.viewType)) bytes += event.newItem.json.length;
  if (event.oldItem !== undefined && showsOldImage(source.viewType)) bytes += event.oldItem.json.length;
  return bytes;
}

export function pendingRecord(ordinal: number, event: ChangeEvent, source: RecordSource): PendingRecord {
  return new PendingRecord(ordinal, event, estimateBytes(event, source));
}

/**
 * A pending record of a mapping that invokes with its own event (`MappingRuntime.eventOf`: a
 * built-in function taking the feed's changes through a typed port), not a Lambda payload: its
 * bytes are the item texts the event refers to, which keeps a batch's volume bounded without
 * measuring the keys by the item-size rules (`event.keysSize`: ~0.2 µs a change, profiled on
 * bench/gsi.ts) for a figure no payload is checked against.
 */
export function portRecord(ordinal: number, event: ChangeEvent): PendingRecord {
  return new PendingRecord(
    ordinal,
    event,
    (event.newItem?.json.length ?? 0) + (event.oldItem?.json.length ?? 0),
  );
}

/** The Lambda record of a pending record: the one built for filtering (once), else a new one. */
export function lambdaRecordOf(record: PendingRecord, source: RecordSource): DynamoDBRecord {
  const built = record.built;
  if (built !== undefined) {
    record.built = undefined;
    return built;
  }
  return toDynamoDBRecord(record.event, record.ordinal, source);
}

/** The synchronous invocation payload limit (docs/streams-and-lambda.md §2.2.5): 6 MB. */
export const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;
