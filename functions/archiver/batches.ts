import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { ArchiveBatch, Image } from '../shared/ports.js';

/**
 * From a stream event to archive batches: which records are archived (TTL deletes only), which
 * item each one archives (its OldImage), and the batch fields the object name derives from.
 */

/** The principal DynamoDB's TTL process deletes as (docs/streams-and-lambda.md §1.2.8). */
export const TTL_PRINCIPAL_ID = 'dynamodb.amazonaws.com';

/** An archiver failure of its own (not the sink's): a record it cannot archive. */
export class ArchiverError extends Error {
  override readonly name = 'ArchiverError';
}

/**
 * Whether a record is a delete made by Time to Live: `REMOVE` with
 * `userIdentity {type: "Service", principalId: "dynamodb.amazonaws.com"}`
 * (docs/streams-and-lambda.md §1.2.8). User deletes carry no identity (docs/streams-and-lambda.md §1.2.9).
 */
export function isTtlRemove(record: DynamoDBRecord): boolean {
  const identity = record.userIdentity as { type?: unknown; principalId?: unknown } | undefined;
  return (
    record.eventName === 'REMOVE' && identity?.type === 'Service' && identity.principalId === TTL_PRINCIPAL_ID
  );
}

/**
 * `arn:aws:dynamodb:<region>:<account>:table/<name>/stream/<label>` → its table ARN, table name
 * and stream label (docs/streams-and-lambda.md §1.1.7).
 */
export function parseStreamArn(arn: string): { tableArn: string; tableName: string; label: string } {
  const match = /^(arn:[^:]+:dynamodb:[^:]*:[^:]*:table\/([^/]+))(?:\/stream\/(.+))?$/.exec(arn);
  if (match === null) throw new ArchiverError(`archiver: not a DynamoDB stream ARN: ${arn}`);
  return { tableArn: match[1]!, tableName: match[2]!, label: match[3] ?? '' };
}

/** Characters kept in object names; anything else becomes `_` (S3 "safe characters"). */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * The shard part of an object name. Lambda's DynamoDB records do not name their shard; an event
 * that does (tumbling-window events carry `shardId`, docs/streams-and-lambda.md §2.6.1) gives it, otherwise
 * the stream label stands in: sequence numbers are unique within a stream, and a re-enabled stream has a new
 * label (docs/streams-and-lambda.md §1.1.8), so names never collide across streams.
 */
export function shardOf(event: DynamoDBStreamEvent, label: string): string {
  const shardId = (event as { shardId?: unknown }).shardId;
  if (typeof shardId === 'string' && shardId !== '') return safeName(shardId);
  return `stream-${safeName(label === '' ? 'unknown' : label)}`;
}

/**
 * The item a record archives: its OldImage when it is a TTL delete, `undefined` when the record
 * is not one (skipped, never archived: defence in depth behind the mapping's filter).
 * @throws ArchiverError for a TTL delete without an OldImage (a KEYS_ONLY or NEW_IMAGE stream):
 * archiving only keys would lose the item silently.
 */
export function archivedItemOf(record: DynamoDBRecord): Image | undefined {
  if (!isTtlRemove(record)) return undefined;
  const oldImage = record.dynamodb?.OldImage as Image | undefined;
  if (oldImage === undefined)
    throw new ArchiverError(
      `archiver: TTL delete ${record.dynamodb?.SequenceNumber ?? record.eventID} has no OldImage; ` +
        'the stream view type must be OLD_IMAGE or NEW_AND_OLD_IMAGES',
    );
  return oldImage;
}

interface Draft {
  tableArn: string;
  tableName: string;
  label: string;
  first: DynamoDBRecord;
  last: DynamoDBRecord;
  items: Image[];
}

/**
 * The event's TTL deletes as archive batches, one per source table (a mapping reads one stream,
 * so normally one), in stream order, and how many records were skipped.
 */
export function planBatches(event: DynamoDBStreamEvent): { batches: ArchiveBatch[]; skipped: number } {
  const drafts = new Map<string, Draft>();
  let skipped = 0;
  for (const record of event.Records) {
    const item = archivedItemOf(record);
    if (item === undefined) {
      skipped++;
      continue;
    }
    const arn = record.eventSourceARN;
    if (arn === undefined) throw new ArchiverError('archiver: record without eventSourceARN');
    let draft = drafts.get(arn);
    if (draft === undefined) {
      draft = { ...parseStreamArn(arn), first: record, last: record, items: [] };
      drafts.set(arn, draft);
    }
    draft.last = record;
    draft.items.push(item);
  }
  const batches: ArchiveBatch[] = [];
  for (const draft of drafts.values()) {
    batches.push({
      tableName: draft.tableName,
      tableArn: draft.tableArn,
      shard: shardOf(event, draft.label),
      firstSequenceNumber: sequenceNumberOf(draft.first),
      lastSequenceNumber: sequenceNumberOf(draft.last),
      firstCreatedAt: createdAtOf(draft.first),
      lastCreatedAt: createdAtOf(draft.last),
      items: draft.items,
    });
  }
  return { batches, skipped };
}

function sequenceNumberOf(record: DynamoDBRecord): string {
  const sequenceNumber = record.dynamodb?.SequenceNumber;
  if (sequenceNumber === undefined || !/^\d{1,40}$/.test(sequenceNumber))
    throw new ArchiverError(`archiver: record ${record.eventID} has no valid SequenceNumber`);
  return sequenceNumber;
}

function createdAtOf(record: DynamoDBRecord): number {
  const at = record.dynamodb?.ApproximateCreationDateTime;
  if (typeof at !== 'number' || !Number.isFinite(at))
    throw new ArchiverError(`archiver: record ${record.eventID} has no ApproximateCreationDateTime`);
  return at;
}
