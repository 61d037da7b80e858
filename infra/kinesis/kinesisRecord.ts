import { createHash } from 'node:crypto';
import type { ChangeEvent } from '../../core/changeEvent.js';
import type { CreationDateTimePrecision } from '../../core/kinesis/destinations.js';
import { eventIdOf } from '../../streams/ids.js';
import { sizeBytesOf } from '../../streams/streamView.js';

/**
 * A change as DynamoDB writes it to a Kinesis data stream (docs/kinesis-destinations.md §4): JSON
 * with the members in the order of the AWS documentation's example record
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/kds.html), both images
 * whatever the table's stream view type, `userIdentity` null except for TTL deletions, and
 * `ApproximateCreationDateTime` in the destination's precision (epoch milliseconds, or
 * microseconds). The images are the stored items' JSON text, spliced in without decoding.
 */
export function kinesisRecordText(
  event: ChangeEvent,
  options: {
    readonly region: string;
    readonly precision: CreationDateTimePrecision;
    readonly salt: Uint32Array;
  },
): string {
  const created = options.precision === 'MICROSECOND' ? event.at * 1000 : event.at;
  const identity =
    event.userIdentity === undefined
      ? 'null'
      : JSON.stringify({ type: event.userIdentity.type, principalId: event.userIdentity.principalId });
  let body = `{"ApproximateCreationDateTime":${created},"Keys":${JSON.stringify(event.keys)}`;
  if (event.newItem !== undefined) body += `,"NewImage":${event.newItem.json}`;
  if (event.oldItem !== undefined) body += `,"OldImage":${event.oldItem.json}`;
  body += `,"SizeBytes":${sizeBytesOf(event, 'NEW_AND_OLD_IMAGES')}}`;
  return (
    `{"awsRegion":${JSON.stringify(options.region)},"eventID":"${eventUuid(options.salt, event.sequence)}",` +
    `"eventName":"${event.eventName}","userIdentity":${identity},"recordFormat":"application/json",` +
    `"tableName":${JSON.stringify(event.table.tableName)},"dynamodb":${body},"eventSource":"aws:dynamodb"}`
  );
}

/** The eventID: a UUID-shaped id, unique per change (the engine's sequence, salted per destination). */
function eventUuid(salt: Uint32Array, sequence: number): string {
  const hex = eventIdOf(salt, sequence);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The record's partition key: a hash of the item's key, so every change of one item goes to the
 * same shard, in order, and items spread over the shards (Kinesis allows 256 characters;
 * https://docs.aws.amazon.com/kinesis/latest/APIReference/API_PutRecordsRequestEntry.html).
 */
export function partitionKeyOf(event: ChangeEvent): string {
  return createHash('md5').update(event.itemKey).digest('hex').toUpperCase();
}
