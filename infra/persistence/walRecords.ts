import type { ChangeEvent } from '../../core/changeEvent.js';
import type { TableChangeKind } from '../../core/engine.js';
import { type BinaryReader, BinaryWriter } from './binary.js';
import type { TableDefinition } from './tableCodec.js';

/**
 * The write-ahead log's records. Every payload starts with its kind (u8) and its LSN (log
 * sequence number, f64: strictly increasing by one from 1, so a gap or a repeat is detected).
 *
 * - `table`: a table's whole definition after each announced change (created, updated, deleted).
 *   Whole, not a diff: replay is then an upsert, and any number of repeats is harmless.
 * - `commit`: the writes of one engine commit (a transaction's, all together: one record is
 *   all or nothing under a torn tail), each with its key, the new item text (absent: deleted) and
 *   the old item text, plus the idempotency tokens the commit's transaction remembered.
 * - `token`: a TransactWriteItems ClientRequestToken remembered without a commit of its own.
 * - `checkpoint`: an event source mapping's position in a shard (absent sequence: deleted).
 */
export const RecordKind = { table: 1, commit: 2, token: 3, checkpoint: 4 } as const;

const TABLE_CHANGES: readonly TableChangeKind[] = ['created', 'updated', 'deleted'];

/** A TransactWriteItems token and what it remembers (docs/dynamodb.md §7.3.4: 10 minutes). */
export interface TokenEntry {
  readonly token: string;
  readonly fingerprint: string;
  readonly completedAt: number;
}

export interface LoggedImage {
  readonly json: string;
  readonly size: number;
}

export interface LoggedWrite {
  readonly tableName: string;
  readonly tableId: string;
  /** The key attributes, as DynamoDB JSON text. */
  readonly keys: string;
  readonly old: LoggedImage | undefined;
  readonly next: LoggedImage | undefined;
}

export type WalRecord =
  | {
      readonly kind: 'table';
      readonly lsn: number;
      readonly at: number;
      readonly accountId: string;
      readonly region: string;
      readonly change: TableChangeKind;
      readonly definition: TableDefinition;
    }
  | {
      readonly kind: 'commit';
      readonly lsn: number;
      readonly at: number;
      readonly accountId: string;
      readonly region: string;
      /** Whether the writer was DynamoDB's TTL process (the only identity a record shows). */
      readonly ttl: boolean;
      readonly writes: readonly LoggedWrite[];
      readonly tokens: readonly TokenEntry[];
    }
  | {
      readonly kind: 'token';
      readonly lsn: number;
      readonly accountId: string;
      readonly region: string;
      readonly entry: TokenEntry;
    }
  | {
      readonly kind: 'checkpoint';
      readonly lsn: number;
      readonly mappingId: string;
      readonly shardId: string | undefined;
      readonly sequenceNumber: string | undefined;
    };

export function writeTableRecord(
  writer: BinaryWriter,
  lsn: number,
  at: number,
  accountId: string,
  region: string,
  change: TableChangeKind,
  definition: TableDefinition,
): void {
  const start = writer.beginFrame();
  writer.u8(RecordKind.table);
  writer.f64(lsn);
  writer.f64(at);
  writer.str(accountId);
  writer.str(region);
  writer.u8(TABLE_CHANGES.indexOf(change));
  writer.str(JSON.stringify(definition));
  writer.endFrame(start);
}

/** One commit's events (same commit id, same region, same time), and tokens to keep with them. */
export function writeCommitRecord(
  writer: BinaryWriter,
  lsn: number,
  events: readonly ChangeEvent[],
  tokens: readonly TokenEntry[],
): void {
  const first = events[0]!;
  const start = writer.beginFrame();
  writer.u8(RecordKind.commit);
  writer.f64(lsn);
  writer.f64(first.at);
  writer.str(first.table.accountId);
  writer.str(first.table.region);
  writer.u8(first.userIdentity === undefined ? 0 : 1);
  writer.u32(events.length);
  for (const event of events) {
    writer.str(event.table.tableName);
    writer.str(event.table.tableId);
    writer.str(JSON.stringify(event.keys));
    writer.optStr(event.oldItem?.json);
    writer.u32(event.oldItem?.size ?? 0);
    writer.optStr(event.newItem?.json);
    writer.u32(event.newItem?.size ?? 0);
  }
  writeTokens(writer, tokens);
  writer.endFrame(start);
}

export function writeTokenRecord(
  writer: BinaryWriter,
  lsn: number,
  accountId: string,
  region: string,
  entry: TokenEntry,
): void {
  const start = writer.beginFrame();
  writer.u8(RecordKind.token);
  writer.f64(lsn);
  writer.str(accountId);
  writer.str(region);
  writeTokens(writer, [entry]);
  writer.endFrame(start);
}

export function writeCheckpointRecord(
  writer: BinaryWriter,
  lsn: number,
  mappingId: string,
  shardId: string | undefined,
  sequenceNumber: string | undefined,
): void {
  const start = writer.beginFrame();
  writer.u8(RecordKind.checkpoint);
  writer.f64(lsn);
  writer.str(mappingId);
  writer.optStr(shardId);
  writer.optStr(sequenceNumber);
  writer.endFrame(start);
}

function writeTokens(writer: BinaryWriter, tokens: readonly TokenEntry[]): void {
  writer.u32(tokens.length);
  for (const entry of tokens) {
    writer.str(entry.token);
    writer.str(entry.fingerprint);
    writer.f64(entry.completedAt);
  }
}

function readTokens(reader: BinaryReader): TokenEntry[] {
  const tokens: TokenEntry[] = [];
  for (let count = reader.u32(); count > 0; count--)
    tokens.push({ token: reader.str(), fingerprint: reader.str(), completedAt: reader.f64() });
  return tokens;
}

function readImage(reader: BinaryReader): LoggedImage | undefined {
  const json = reader.optStr();
  const size = reader.u32();
  return json === undefined ? undefined : { json, size };
}

/**
 * Decodes one payload.
 * @throws RangeError when the payload is malformed (it passed its checksum: a bug, not damage).
 */
export function readWalRecord(reader: BinaryReader): WalRecord {
  const kind = reader.u8();
  const lsn = reader.f64();
  switch (kind) {
    case RecordKind.table: {
      const at = reader.f64();
      const accountId = reader.str();
      const region = reader.str();
      const change = TABLE_CHANGES[reader.u8()];
      if (change === undefined) throw new RangeError('unknown table change');
      const definition = JSON.parse(reader.str()) as TableDefinition;
      return { kind: 'table', lsn, at, accountId, region, change, definition };
    }
    case RecordKind.commit: {
      const at = reader.f64();
      const accountId = reader.str();
      const region = reader.str();
      const ttl = reader.u8() === 1;
      const writes: LoggedWrite[] = [];
      for (let count = reader.u32(); count > 0; count--) {
        const tableName = reader.str();
        const tableId = reader.str();
        const keys = reader.str();
        const old = readImage(reader);
        writes.push({ tableName, tableId, keys, old, next: readImage(reader) });
      }
      return { kind: 'commit', lsn, at, accountId, region, ttl, writes, tokens: readTokens(reader) };
    }
    case RecordKind.token: {
      const accountId = reader.str();
      const region = reader.str();
      const [entry] = readTokens(reader);
      if (entry === undefined) throw new RangeError('token record without a token');
      return { kind: 'token', lsn, accountId, region, entry };
    }
    case RecordKind.checkpoint:
      return {
        kind: 'checkpoint',
        lsn,
        mappingId: reader.str(),
        shardId: reader.optStr(),
        sequenceNumber: reader.optStr(),
      };
    default:
      throw new RangeError(`unknown record kind ${kind}`);
  }
}

/**
 * The probe `FrameReader` uses to look for intact records after a damaged one: a known kind and
 * an integral LSN above `after`.
 */
export function walProbe(after: () => number) {
  return (payload: Buffer, start: number, length: number): boolean => {
    if (length < 9) return false;
    const kind = payload[start]!;
    if (kind < RecordKind.table || kind > RecordKind.checkpoint) return false;
    const lsn = payload.readDoubleLE(start + 1);
    return Number.isSafeInteger(lsn) && lsn > after();
  };
}

/** A writer sized for the log's usual batches. */
export function newRecordWriter(): BinaryWriter {
  return new BinaryWriter(1 << 20);
}
