import type { DynamoDBRecord } from 'aws-lambda';
import type { ChangeEvent } from '../core/changeEvent.js';
import { type AttributeMap, setAttribute } from '../core/model/attributeValue.js';
import type { StoredItem } from '../core/store/storedItem.js';
import type { StreamViewType } from '../core/store/table.js';
import { eventIdOf } from './ids.js';
import { decodeImage } from './imageDecoder.js';
import { formatSequenceNumber } from './sequenceNumber.js';

/**
 * StreamViewType → records (docs/streams-and-lambda.md §1.1, §1.2). Two shapes of the same record:
 *
 * - `toDynamoDBRecord`: the Lambda/`@types/aws-lambda` shape (`userIdentity` in lower camel case,
 *   `eventSourceARN` when the record comes from a stream), field order as recorded
 *   (docs/streams-and-lambda.md §2.2.2); images are decoded when the record is built, or on first access
 *   (`lazyImages`);
 * - `toWireRecord`: the GetRecords shape (`Identity` members capitalised, no `eventSourceARN`),
 *   whose images are the stored items themselves, spliced verbatim into the response body.
 */

/** Where a record comes from: fixed per stream or feed. */
export interface RecordSource {
  /** `awsRegion` (docs/streams-and-lambda.md §1.1.6). */
  readonly region: string;
  readonly viewType: StreamViewType;
  /** The stream ARN: Lambda records carry it as `eventSourceARN` (absent for the internal feed). */
  readonly eventSourceArn: string | undefined;
  /** Salt of the eventIDs. */
  readonly salt: Uint32Array;
}

/** Which images a view type shows (docs/streams-and-lambda.md §1.2.3). */
export function showsNewImage(viewType: StreamViewType): boolean {
  return viewType === 'NEW_IMAGE' || viewType === 'NEW_AND_OLD_IMAGES';
}

export function showsOldImage(viewType: StreamViewType): boolean {
  return viewType === 'OLD_IMAGE' || viewType === 'NEW_AND_OLD_IMAGES';
}

/**
 * SizeBytes (docs/streams-and-lambda.md §1.2.7): the item size of Keys plus each image the view shows, from
 * the sizes the engine computed when it stored the items (nothing is re-measured).
 */
export function sizeBytesOf(event: ChangeEvent, viewType: StreamViewType): number {
  let size = event.keysSize;
  if (event.newItem !== undefined && showsNewImage(viewType)) size += event.newItem.size;
  if (event.oldItem !== undefined && showsOldImage(viewType)) size += event.oldItem.size;
  return size;
}

/** Whether a view type can be derived from a stream of another one (it shows no more images). */
export function viewIncludes(stream: StreamViewType, requested: StreamViewType): boolean {
  if (requested === stream || requested === 'KEYS_ONLY') return true;
  return stream === 'NEW_AND_OLD_IMAGES';
}

/** A plain copy of the key attributes: readers may mutate records, never the engine's keys. */
function copyKeys(keys: AttributeMap): AttributeMap {
  const copy: AttributeMap = {};
  for (const name of Object.keys(keys)) setAttribute(copy, name, { ...keys[name]! });
  return copy;
}

/** Defines `name` as decoded on first read, then an ordinary data property (assignable). */
function defineLazy(target: object, name: string, load: () => unknown): void {
  const settle = (value: unknown) =>
    Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(target, name, {
    enumerable: true,
    configurable: true,
    get() {
      const value = load();
      settle(value);
      return value;
    },
    set: settle,
  });
}

/**
 * The Lambda-style `DynamoDBRecord` of one change (docs/streams-and-lambda.md §1.1, §1.2, §2.2.2). A fresh
 * object per call: callers may mutate it.
 *
 * Images are decoded when the record is built (never when the change is appended), by
 * `decodeImage` (imageDecoder.ts: the same objects as `JSON.parse` of the stored text, ~3× cheaper
 * on flat items). With
 * `lazyImages`, `Keys`, `NewImage` and `OldImage` are decoded on first read instead, and can still
 * be assigned. Measured on ~200-byte items (bench/streams.ts): building with eager decoding costs
 * about 1.6 µs a record, the lazy accessors about 8 µs, so lazy only pays for large images that
 * are mostly not read (e.g. records filtered on `eventName` or keys first).
 */
export function toDynamoDBRecord(
  event: ChangeEvent,
  ordinal: number,
  source: RecordSource,
  options: { lazyImages?: boolean } = {},
): DynamoDBRecord {
  const viewType = source.viewType;
  const newItem = event.newItem !== undefined && showsNewImage(viewType) ? event.newItem : undefined;
  const oldItem = event.oldItem !== undefined && showsOldImage(viewType) ? event.oldItem : undefined;
  const body = { ApproximateCreationDateTime: Math.floor(event.at / 1000) } as Record<string, unknown>;
  if (options.lazyImages) {
    defineLazy(body, 'Keys', () => copyKeys(event.keys));
    if (newItem !== undefined) defineLazy(body, 'NewImage', () => decodeImage(newItem));
    if (oldItem !== undefined) defineLazy(body, 'OldImage', () => decodeImage(oldItem));
  } else {
    body.Keys = copyKeys(event.keys);
    if (newItem !== undefined) body.NewImage = decodeImage(newItem);
    if (oldItem !== undefined) body.OldImage = decodeImage(oldItem);
  }
  body.SequenceNumber = formatSequenceNumber(ordinal);
  body.SizeBytes = sizeBytesOf(event, viewType);
  body.StreamViewType = viewType;
  const record: DynamoDBRecord = {
    eventID: eventIdOf(source.salt, ordinal),
    eventName: event.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: source.region,
    dynamodb: body,
  };
  // Only TTL deletes carry an identity (docs/streams-and-lambda.md §1.2.8, §1.2.9).
  const identity = event.userIdentity;
  if (identity !== undefined)
    record.userIdentity = { type: identity.type, principalId: identity.principalId };
  if (source.eventSourceArn !== undefined) record.eventSourceARN = source.eventSourceArn;
  return record;
}

/** The StreamRecord of the GetRecords wire shape. Images stay `StoredItem`s until serialised. */
export interface WireStreamRecord {
  ApproximateCreationDateTime: number;
  Keys: AttributeMap;
  NewImage?: StoredItem;
  OldImage?: StoredItem;
  SequenceNumber: string;
  SizeBytes: number;
  StreamViewType: StreamViewType;
}

/**
 * One record as GetRecords returns it (docs/streams-and-lambda.md §1.1, §1.2.8: `userIdentity` with `Type`
 * and `PrincipalId`). Serialise with `toWireJson` to splice the stored item texts, or `materialize`.
 */
export function toWireRecord(
  event: ChangeEvent,
  ordinal: number,
  source: RecordSource,
): Record<string, unknown> {
  const viewType = source.viewType;
  const body: WireStreamRecord = {
    ApproximateCreationDateTime: Math.floor(event.at / 1000),
    Keys: copyKeys(event.keys),
  } as WireStreamRecord;
  if (event.newItem !== undefined && showsNewImage(viewType)) body.NewImage = event.newItem;
  if (event.oldItem !== undefined && showsOldImage(viewType)) body.OldImage = event.oldItem;
  body.SequenceNumber = formatSequenceNumber(ordinal);
  body.SizeBytes = sizeBytesOf(event, viewType);
  body.StreamViewType = viewType;
  const record: Record<string, unknown> = {
    eventID: eventIdOf(source.salt, ordinal),
    eventName: event.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: source.region,
    dynamodb: body,
  };
  const identity = event.userIdentity;
  if (identity !== undefined)
    record.userIdentity = { Type: identity.type, PrincipalId: identity.principalId };
  return record;
}
