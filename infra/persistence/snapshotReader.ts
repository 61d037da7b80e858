import type { ChangeEvent } from '../../core/changeEvent.js';
import type { Engine } from '../../core/engine.js';
import { applyCheckpoint, type CheckpointMap } from '../../core/persistence/checkpointStore.js';
import { StoredItem } from '../../core/store/storedItem.js';
import type { Table } from '../../core/store/table.js';
import { splitItemKey } from '../../core/ttl/expiryIndex.js';
import { Stream, type StreamSettings, type StreamState } from '../../streams/stream.js';
import { BinaryReader } from './binary.js';
import { CorruptDataError } from './errors.js';
import { type Frame, FrameReader } from './frameReader.js';
import { parseStreamState, readEvent, Section, SNAPSHOT_MAGIC, tableRefOf } from './snapshotFormat.js';
import { applyTableDefinition, buildExpiryIndex, type TableDefinition } from './tableCodec.js';

export interface LoadedSnapshot {
  readonly lsn: number;
  /** The clock's time at S. */
  readonly capturedAt: number;
  readonly items: number;
  readonly records: number;
  /** The retained streams, rebuilt, for `ChangeLog.restoreStreams`. */
  readonly streams: Stream[];
}

interface StreamLoad {
  readonly state: StreamState;
  readonly positions: number[][];
  readonly events: ChangeEvent[];
  /** The last image of each item key seen in this stream's records (shared with the next). */
  readonly lastImages: Map<string, StoredItem>;
}

/**
 * Loads a snapshot into an engine without tables: definitions, items (`StoredItem`s built from
 * the stored text, never parsed), tokens, labels, checkpoints, and the streams with their records.
 * @throws CorruptDataError naming the file and offset when anything fails to read.
 */
export function loadSnapshot(
  path: string,
  engine: Engine,
  settings: StreamSettings,
  checkpoints: CheckpointMap,
): LoadedSnapshot {
  const reader = new FrameReader(path);
  const tables = new Map<string, Table>();
  const streams = new Map<string, StreamLoad>();
  let header: { lsn: number; capturedAt: number } | undefined;
  let items = 0;
  let records = 0;
  let complete = false;
  let frame: Frame | undefined;
  try {
    while ((frame = reader.next()) !== undefined) {
      if (complete) throw new RangeError('data after the trailer');
      const input = new BinaryReader(frame.buffer, frame.start, frame.end);
      const kind = input.u8();
      if (header === undefined && kind !== Section.header) throw new RangeError('no header');
      switch (kind) {
        case Section.header: {
          if (input.str() !== SNAPSHOT_MAGIC) throw new RangeError('not an eddy snapshot');
          header = { lsn: input.f64(), capturedAt: input.f64() };
          break;
        }
        case Section.region: {
          const region = engine.region(input.str(), input.str());
          for (const [name, label] of JSON.parse(input.str()) as [string, string][])
            region.lastStreamLabels.set(name, label);
          for (const [token, entry] of JSON.parse(input.str()) as [
            string,
            { fingerprint: string; completedAt: number },
          ][])
            region.transactionTokens.set(token, entry);
          break;
        }
        case Section.table: {
          const region = engine.region(input.str(), input.str());
          const table = applyTableDefinition(region, JSON.parse(input.str()) as TableDefinition, false);
          tables.set(table.tableId, table);
          break;
        }
        case Section.items:
          items += loadItems(input, tables);
          break;
        case Section.checkpoints:
          for (const [mapping, shards] of JSON.parse(input.str()) as [string, [string, string][]][])
            for (const [shard, sequence] of shards) applyCheckpoint(checkpoints, mapping, shard, sequence);
          break;
        case Section.stream: {
          const state = parseStreamState(input.str());
          streams.set(state.init.arn, {
            state,
            positions: state.shards.map(() => []),
            events: [],
            lastImages: new Map(),
          });
          break;
        }
        case Section.shardPositions: {
          const load = streamOf(streams, input.str());
          const positions = load.positions[input.u32()];
          if (positions === undefined) throw new RangeError('positions of an unknown shard');
          for (let count = input.u32(); count > 0; count--) positions.push(input.f64());
          break;
        }
        case Section.streamEvents:
          records += loadEvents(input, streamOf(streams, input.str()), tables);
          break;
        case Section.trailer:
          checkTrailer(input, tables.size, items, streams.size, records);
          complete = true;
          break;
        default:
          throw new RangeError(`unknown section ${kind}`);
      }
    }
  } catch (error) {
    const offset = frame?.offset ?? reader.offset;
    reader.close();
    if (error instanceof CorruptDataError) throw error;
    throw new CorruptDataError(path, offset, (error as Error).message, { cause: error });
  }
  reader.close();
  if (reader.problem !== undefined)
    throw new CorruptDataError(path, reader.problem.offset, reader.problem.reason);
  if (!complete || header === undefined) throw new CorruptDataError(path, reader.size, 'no trailer');
  for (const table of tables.values()) buildExpiryIndex(table);
  const rebuilt: Stream[] = [];
  for (const { state, positions, events } of streams.values()) {
    if (events.length !== state.end - state.head)
      throw new CorruptDataError(path, reader.size, `stream ${state.init.arn} misses records`);
    rebuilt.push(new Stream(state.init, settings, { state, events, positions }));
  }
  return { lsn: header.lsn, capturedAt: header.capturedAt, items, records, streams: rebuilt };
}

/** The hot loop of a restart: one `ItemStore.set` per item, no JSON parsing. */
function loadItems(input: BinaryReader, tables: Map<string, Table>): number {
  const table = tables.get(input.str());
  if (table === undefined) throw new RangeError('items of an unknown table');
  const store = table.items;
  const count = input.u32();
  for (let index = 0; index < count; index++) {
    const prefix = input.str();
    const hashKey = input.str16();
    const rangeKey = input.str16();
    const size = input.u32();
    store.restore(hashKey, rangeKey, new StoredItem(input.str(), size), prefix + hashKey);
  }
  return count;
}

function loadEvents(input: BinaryReader, load: StreamLoad, tables: Map<string, Table>): number {
  const from = input.f64();
  if (from !== load.state.head + load.events.length) throw new RangeError('stream records out of order');
  const ref = tableRefOf(load.state);
  const table = tables.get(load.state.init.tableId);
  const lastImages = load.lastImages;
  // Records share item text with the table and with each other, as before the restart.
  const share = (itemKey: string, json: string, size: number, isNew: boolean): StoredItem => {
    const last = lastImages.get(itemKey);
    if (last !== undefined && last.json === json) return last;
    let item: StoredItem | undefined;
    if (isNew && table !== undefined) {
      const { hashKey, rangeKey } = splitItemKey(itemKey);
      const current = table.items.get(hashKey, rangeKey);
      if (current !== undefined && current.json === json) item = current;
    }
    item ??= new StoredItem(json, size);
    if (isNew) lastImages.set(itemKey, item);
    return item;
  };
  const count = input.u32();
  for (let index = 0; index < count; index++) load.events.push(readEvent(input, ref, share));
  return count;
}

function streamOf(streams: Map<string, StreamLoad>, arn: string): StreamLoad {
  const load = streams.get(arn);
  if (load === undefined) throw new RangeError(`records of an unknown stream ${arn}`);
  return load;
}

function checkTrailer(
  input: BinaryReader,
  tables: number,
  items: number,
  streams: number,
  records: number,
): void {
  const expected = [input.u32(), input.f64(), input.u32(), input.f64()];
  const actual = [tables, items, streams, records];
  if (expected.some((value, index) => value !== actual[index]))
    throw new RangeError(`counts ${actual.join('/')} differ from the trailer's ${expected.join('/')}`);
}
