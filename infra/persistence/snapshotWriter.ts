import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChangeEvent } from '../../core/changeEvent.js';
import type { Engine } from '../../core/engine.js';
import { partitionScanKey } from '../../core/model/keyCodec.js';
import type { CheckpointMap } from '../../core/persistence/checkpointStore.js';
import type { Partition, ScanPosition } from '../../core/store/itemStore.js';
import type { StoredItem } from '../../core/store/storedItem.js';
import type { Table } from '../../core/store/table.js';
import { splitItemKey } from '../../core/ttl/expiryIndex.js';
import type { ChangeLog } from '../../streams/changeLog.js';
import type { Shard } from '../../streams/shard.js';
import type { Stream, StreamState } from '../../streams/stream.js';
import { BinaryWriter } from './binary.js';
import { syncDirectory } from './dataDirectory.js';
import { pendingReplicationOf } from './replicationRecovery.js';
import { Section, SNAPSHOT_MAGIC, streamStateJson, writeEvent } from './snapshotFormat.js';
import { type TableDefinition, tableDefinition } from './tableCodec.js';

/**
 * Writing a snapshot without stopping writers (issue #10: pauses of a few milliseconds at most).
 *
 * At LSN S, synchronously, the job captures what is small: table definitions, stream states
 * (and holds their trimming, so records and shard positions stay where they are), tokens, labels,
 * checkpoints. Then it copies items and stream records in chunks of about `CHUNK_MS`, yielding
 * to the event loop between chunks. A chunk never keeps an iterator across a yield: the next one
 * resumes the scan after the last key copied.
 *
 * Writes go on meanwhile. Copy-on-write keeps the copy exactly the state at S: the first write
 * after S to a key the scan has not reached yet records the item's value at S (the change
 * event's old image, or "absent") in a journal; the scan copies the journal's value instead of
 * the live one, and at the end copies journal entries whose keys the scan no longer found
 * (deleted since S). Keys already copied need nothing; keys created after S are skipped.
 * Stream records up to S never change, so they are copied as they are.
 */
const CHUNK_MS = 2;
/** Buffered snapshot bytes are written out past this size. */
const WRITE_BYTES = 1 << 20;
/** ~4 µs each (an MD5 and a tree insert): under 2 ms a chunk. */
const PLACE_PER_CHUNK = 400;
/** 64 Ki positions (512 KiB) per section: a few milliseconds of copying at most. */
const POSITIONS_PER_SECTION = 65536;

/** What the log's snapshot records besides items: enough to rebuild every other piece of state. */
export interface SnapshotSources {
  readonly engine: Engine;
  readonly changeLog: ChangeLog;
  readonly checkpoints: CheckpointMap;
}

export interface SnapshotResult {
  readonly lsn: number;
  readonly path: string;
  readonly bytes: number;
  readonly items: number;
  readonly records: number;
  readonly ms: number;
}

class TableDump {
  cursor: ScanPosition | undefined;
  done = false;
  /**
   * Values at S of keys written since S before the scan reached them (null: absent at S), by
   * hash key then range key: the scan looks them up without building a string per item.
   */
  readonly journal = new Map<string, Map<string, StoredItem | null>>();

  /** Records the value at S of a key (once: the first write after S saw it). */
  remember(hashKey: string, rangeKey: string, value: StoredItem | null): void {
    let partition = this.journal.get(hashKey);
    if (partition === undefined) {
      partition = new Map();
      this.journal.set(hashKey, partition);
    }
    if (!partition.has(rangeKey)) partition.set(rangeKey, value);
  }

  constructor(
    readonly accountId: string,
    readonly region: string,
    readonly table: Table,
    readonly definition: TableDefinition,
  ) {}

  /** Whether the scan has passed the key (its value at S is already copied). */
  passed(hashKey: string, rangeKey: string): boolean {
    const cursor = this.cursor;
    if (cursor === undefined) return false;
    const scanKey = partitionScanKey(this.table.key.hash.type, hashKey);
    if (scanKey !== cursor.scanKey) return scanKey < cursor.scanKey;
    return !this.table.items.composite || rangeKey <= cursor.rangeKey;
  }
}

interface StreamDump {
  readonly stream: Stream;
  readonly state: StreamState;
  readonly shards: readonly Shard[];
  readonly release: () => void;
}

export class SnapshotJob {
  readonly capturedAt: number;
  private readonly tables: TableDump[] = [];
  private readonly byTableId = new Map<string, TableDump>();
  private readonly regions: {
    accountId: string;
    region: string;
    labels: [string, string][];
    tokens: string;
  }[] = [];
  private readonly streams: StreamDump[] = [];
  private readonly checkpoints: string;
  private released = false;

  /** Captures the small state at LSN `lsn` (the caller guarantees every record ≤ lsn is applied). */
  constructor(
    sources: SnapshotSources,
    readonly lsn: number,
  ) {
    this.capturedAt = sources.engine.clock.now();
    for (const region of sources.engine.allRegions()) {
      this.regions.push({
        accountId: region.accountId,
        region: region.name,
        labels: [...region.lastStreamLabels],
        tokens: JSON.stringify([...region.transactionTokens]),
      });
      for (const table of region.tables.values()) {
        const dump = new TableDump(region.accountId, region.name, table, {
          ...tableDefinition(table),
          ...pendingReplicationOf(sources.engine, region.name, table),
        });
        this.tables.push(dump);
        this.byTableId.set(table.tableId, dump);
      }
    }
    this.checkpoints = JSON.stringify(
      [...sources.checkpoints].map(([mapping, shards]) => [mapping, [...shards]]),
    );
    for (const stream of sources.changeLog.retainedStreams()) {
      const release = stream.holdTrimming();
      this.streams.push({ stream, state: stream.exportState(), shards: [...stream.shards], release });
    }
  }

  /** The commit hook (copy-on-write): call for every change event after S, before yielding. */
  onCommit(event: ChangeEvent): void {
    const dump = this.byTableId.get(event.table.tableId);
    if (dump === undefined || dump.done) return;
    const { hashKey, rangeKey } = splitItemKey(event.itemKey);
    if (dump.journal.get(hashKey)?.has(rangeKey)) return;
    if (!dump.passed(hashKey, rangeKey)) dump.remember(hashKey, rangeKey, event.oldItem ?? null);
  }

  /** Lets go of held stream trimming (after writing, or when abandoning the job). */
  release(): void {
    if (this.released) return;
    this.released = true;
    for (const dump of this.streams) dump.release();
    this.tables.length = 0;
    this.byTableId.clear();
  }

  /** Writes the snapshot to `path` (through `path.tmp`, fsynced, renamed). */
  async write(path: string): Promise<SnapshotResult> {
    const started = performance.now();
    const temporary = `${path}.tmp`;
    const file = await open(temporary, 'w');
    const out = new BinaryWriter(2 * WRITE_BYTES);
    let bytes = 0;
    const flush = async (force: boolean) => {
      if (out.offset === 0 || (!force && out.offset < WRITE_BYTES)) return nextTurn();
      const { bytesWritten } = await file.write(out.buffer, 0, out.offset);
      if (bytesWritten !== out.offset) throw new Error(`short write to ${temporary}`);
      bytes += out.offset;
      out.offset = 0;
    };
    let items = 0;
    let records = 0;
    try {
      this.writeHead(out);
      for (const dump of this.tables) {
        // Partitions written since the last Scan are hashed into scan order a chunk at a time.
        while (dump.table.items.unplacedCount > PLACE_PER_CHUNK) {
          dump.table.items.placePending(PLACE_PER_CHUNK);
          await nextTurn();
        }
        while (!dump.done) {
          items += this.copyItems(dump, out);
          await flush(false);
        }
      }
      for (const dump of this.streams) {
        section(out, Section.stream, () => out.str(streamStateJson(dump.state)));
        for (let index = 0; index < dump.shards.length; index++) {
          const size = dump.state.shardSizes[index] ?? 0;
          for (let from = 0; from === 0 || from < size; from += POSITIONS_PER_SECTION) {
            writePositions(out, dump, index, from, Math.min(size, from + POSITIONS_PER_SECTION));
            await flush(false);
          }
        }
        for (let position = dump.state.head; position < dump.state.end; ) {
          position = this.copyRecords(dump, position, out);
          await flush(false);
        }
        records += dump.state.end - dump.state.head;
        dump.release();
      }
      section(out, Section.trailer, () => {
        out.u32(this.tables.length);
        out.f64(items);
        out.u32(this.streams.length);
        out.f64(records);
      });
      await flush(true);
      await file.sync();
      await file.close();
      await rename(temporary, path);
      syncDirectory(dirname(path));
    } catch (error) {
      await file.close().catch(() => {});
      await rm(temporary, { force: true });
      throw error;
    } finally {
      this.release();
    }
    return { lsn: this.lsn, path, bytes, items, records, ms: performance.now() - started };
  }

  private writeHead(out: BinaryWriter): void {
    section(out, Section.header, () => {
      out.str(SNAPSHOT_MAGIC);
      out.f64(this.lsn);
      out.f64(this.capturedAt);
    });
    for (const region of this.regions) {
      section(out, Section.region, () => {
        out.str(region.accountId);
        out.str(region.region);
        out.str(JSON.stringify(region.labels));
        out.str(region.tokens);
      });
    }
    for (const dump of this.tables) {
      section(out, Section.table, () => {
        out.str(dump.accountId);
        out.str(dump.region);
        out.str(JSON.stringify(dump.definition));
      });
    }
    section(out, Section.checkpoints, () => out.str(this.checkpoints));
  }

  /** Copies items for about CHUNK_MS into one items section; returns how many. */
  private copyItems(dump: TableDump, out: BinaryWriter): number {
    const start = out.beginFrame();
    out.u8(Section.items);
    out.str(dump.table.tableId);
    const countAt = out.offset;
    out.u32(0);
    const deadline = performance.now() + CHUNK_MS;
    const journal = dump.journal;
    let count = 0;
    let visited = 0;
    let lastPartition: Partition | undefined;
    let lastRangeKey = '';
    const finished = dump.table.items.visitFrom(dump.cursor, (partition, rangeKey, item) => {
      lastPartition = partition;
      lastRangeKey = rangeKey;
      let value: StoredItem | null = item;
      const saved = journal.size === 0 ? undefined : journal.get(partition.hashKey);
      if (saved?.has(rangeKey)) {
        value = saved.get(rangeKey)!;
        if (saved.size === 1) journal.delete(partition.hashKey);
        else saved.delete(rangeKey);
      }
      if (value !== null) {
        writeItem(out, partition.scanKey!, partition.hashKey, rangeKey, value);
        count++;
      }
      return (++visited & 63) !== 0 || performance.now() <= deadline;
    });
    // Commits happen between chunks only: the cursor moves once a chunk.
    if (lastPartition !== undefined)
      dump.cursor = { scanKey: lastPartition.scanKey!, rangeKey: lastRangeKey };
    if (finished) {
      // Keys present at S whose items were deleted before the scan reached them.
      for (const [hashKey, saved] of journal) {
        const scanKey = partitionScanKey(dump.table.key.hash.type, hashKey);
        for (const [rangeKey, value] of saved) {
          if (value === null) continue;
          writeItem(out, scanKey, hashKey, rangeKey, value);
          count++;
        }
      }
      journal.clear();
      dump.done = true;
    }
    out.buffer.writeUInt32LE(count, countAt);
    out.endFrame(start);
    return count;
  }

  /** Copies stream records from `position` for about CHUNK_MS; returns where to go on. */
  private copyRecords(dump: StreamDump, from: number, out: BinaryWriter): number {
    const start = out.beginFrame();
    out.u8(Section.streamEvents);
    out.str(dump.state.init.arn);
    out.f64(from);
    const countAt = out.offset;
    out.u32(0);
    const deadline = performance.now() + CHUNK_MS;
    let position = from;
    while (position < dump.state.end) {
      writeEvent(out, dump.stream.log.at(position));
      position++;
      if (((position - from) & 127) === 0 && performance.now() > deadline) break;
    }
    out.buffer.writeUInt32LE(position - from, countAt);
    out.endFrame(start);
    return position;
  }
}

function section(out: BinaryWriter, kind: number, body: () => void): void {
  const start = out.beginFrame();
  out.u8(kind);
  body();
  out.endFrame(start);
}

/** An item with its partition's scan hash prefix (6 hex digits before the encoded key). */
function writeItem(
  out: BinaryWriter,
  scanKey: string,
  hashKey: string,
  rangeKey: string,
  item: StoredItem,
): void {
  out.str(scanKey.slice(0, scanKey.length - hashKey.length));
  out.str16(hashKey);
  out.str16(rangeKey);
  out.u32(item.size);
  out.str(item.json);
}

/**
 * Retained positions [from, to) of the `index`-th shard at S (trimming is held: they have not
 * moved). A loader appends the sections of a shard in order.
 */
function writePositions(out: BinaryWriter, dump: StreamDump, index: number, from: number, to: number): void {
  const shard = dump.shards[index]!;
  section(out, Section.shardPositions, () => {
    out.str(dump.state.init.arn);
    out.u32(index);
    out.u32(to - from);
    out.ensure((to - from) * 8);
    for (let at = from; at < to; at++) {
      out.buffer.writeDoubleLE(shard.positionAt(at), out.offset);
      out.offset += 8;
    }
  });
}
