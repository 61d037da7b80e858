import { ChangeEvent, type ChangeEventName, type TableRef, TTL_PRINCIPAL } from '../../core/changeEvent.js';
import type { AttributeMap } from '../../core/model/attributeValue.js';
import { StoredItem } from '../../core/store/storedItem.js';
import type { StreamState } from '../../streams/stream.js';
import type { BinaryReader, BinaryWriter } from './binary.js';

/**
 * A snapshot file is a run of frames (`binary.ts`), each a section whose first byte says what it
 * holds, in this order:
 *
 *   header      magic, the LSN S it is consistent at, the clock time at S
 *   region*     per account and region: last stream labels, recent transaction tokens
 *   table*      a table definition (`tableCodec.ts`)
 *   items*      a table's items, by table id: [scan hash prefix, hash key, range key, size, item
 *               text] each, so loading builds `StoredItem`s without parsing item JSON and places
 *               partitions in scan order without hashing them (1,000,000 items ≤ 5 s)
 *   checkpoints event source mapping checkpoints
 *   stream*     a stream's state, then its shards' positions and its records
 *   trailer     counts: a snapshot without its trailer is incomplete and never used
 *
 * Snapshots are written as `<S>.snap.tmp`, fsynced, then renamed: a listed `.snap` is whole.
 */
export const Section = {
  header: 1,
  region: 2,
  table: 3,
  items: 4,
  checkpoints: 5,
  stream: 6,
  shardPositions: 7,
  streamEvents: 8,
  trailer: 9,
} as const;

export const SNAPSHOT_MAGIC = 'eddy-snapshot/1';

const EVENT_NAMES: readonly ChangeEventName[] = ['INSERT', 'MODIFY', 'REMOVE'];

/** A stream's state as JSON (the salt as plain numbers). */
export function streamStateJson(state: StreamState): string {
  return JSON.stringify({ ...state, init: { ...state.init, salt: [...state.init.salt] } });
}

export function parseStreamState(json: string): StreamState {
  const parsed = JSON.parse(json) as StreamState & { init: { salt: number[] } };
  return { ...parsed, init: { ...parsed.init, salt: Uint32Array.from(parsed.init.salt) } };
}

/** The table ref a stream's records carry (every record of a stream is from one table). */
export function tableRefOf(state: StreamState): TableRef {
  const { init } = state;
  const marker = init.arn.lastIndexOf('/stream/');
  return {
    accountId: init.accountId,
    region: init.region,
    tableName: init.tableName,
    tableId: init.tableId,
    tableArn: marker < 0 ? init.arn : init.arn.slice(0, marker),
  };
}

/** One stream record (its change event); the table ref is the stream's. */
export function writeEvent(writer: BinaryWriter, event: ChangeEvent): void {
  writer.f64(event.sequence);
  writer.f64(event.commitId);
  writer.u8(EVENT_NAMES.indexOf(event.eventName));
  writer.str(JSON.stringify(event.keys));
  writer.str16(event.itemKey);
  writer.optStr(event.oldItem?.json);
  writer.u32(event.oldItem?.size ?? 0);
  writer.optStr(event.newItem?.json);
  writer.u32(event.newItem?.size ?? 0);
  writer.f64(event.at);
  writer.u8(event.userIdentity === undefined ? 0 : 1);
}

/**
 * Reads a record written by `writeEvent`. `share` returns an equal stored item already in memory
 * (the table's, or the record before's), so records and items share their text as they did
 * before the restart.
 */
export function readEvent(
  reader: BinaryReader,
  table: TableRef,
  share: (itemKey: string, json: string, size: number, isNew: boolean) => StoredItem,
): ChangeEvent {
  const sequence = reader.f64();
  const commitId = reader.f64();
  const eventName = EVENT_NAMES[reader.u8()];
  if (eventName === undefined) throw new RangeError('unknown event name');
  const keys = JSON.parse(reader.str()) as AttributeMap;
  const itemKey = reader.str16();
  const oldJson = reader.optStr();
  const oldSize = reader.u32();
  const newJson = reader.optStr();
  const newSize = reader.u32();
  const at = reader.f64();
  const identity = reader.u8() === 1 ? TTL_PRINCIPAL : undefined;
  return new ChangeEvent(
    sequence,
    commitId,
    table,
    eventName,
    keys,
    itemKey,
    oldJson === undefined ? undefined : share(itemKey, oldJson, oldSize, false),
    newJson === undefined ? undefined : share(itemKey, newJson, newSize, true),
    at,
    identity,
  );
}

/** A fresh stored item (the default when nothing equal is at hand). */
export function storedItem(json: string, size: number): StoredItem {
  return new StoredItem(json, size);
}
