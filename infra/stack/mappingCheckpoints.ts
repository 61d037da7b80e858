import { createHash } from 'node:crypto';
import { type CheckpointStore, MemoryCheckpointStore } from '../../core/persistence/checkpointStore.js';
import type { MappingCheckpoint, ShardCheckpoint } from '../../streams/mapping/eventSourceMapping.js';
import type {
  CreateEventSourceMappingInput,
  EventSourceMappingConfiguration,
  MappingManager,
} from '../../streams/mapping/index.js';

/**
 * Keeps the config's event source mappings where they were across restarts (docs/architecture.md §4): each
 * binding gets a UUID derived from its function and table, so the mapping created at the next start is the
 * same mapping; its shard positions go to a `CheckpointStore` (a data directory's, under `--data-dir`) as
 * each batch is done, and are handed back at creation. A restart resumes right after the last batch that
 * finished; a crash may deliver the batch that was in flight again, which Lambda's at-least-once delivery
 * allows ("Lambda reads records from the data stream and invokes your function ... at least once", Lambda
 * developer guide), and never skips one.
 */

const bindingUuids = new Map<string, string>();

/** The UUID of a config binding: stable across restarts, distinct per function and table. */
export function bindingUuid(functionName: string, tableName: string): string {
  // Remembered: a test kit's `reset` binds every mapping again (bench/startup.ts).
  const name = `eddy-binding\0${functionName}\0${tableName}`;
  const known = bindingUuids.get(name);
  if (known !== undefined) return known;
  const uuid = uuidOf(name);
  bindingUuids.set(name, uuid);
  return uuid;
}

function uuidOf(name: string): string {
  const hex = createHash('sha1').update(name).digest('hex');
  // Laid out as an RFC 9562 version-5-style UUID (name-based, SHA-1).
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A finished shard is stored as `<sequence number>;finished`. */
const FINISHED = ';finished';
/** Next to the shards: the stream the positions belong to (no shard id starts with `#`). */
const STREAM_ARN = '#streamArn';

function encode(shard: ShardCheckpoint): string {
  return shard.finished ? `${shard.processedThrough}${FINISHED}` : shard.processedThrough;
}

function decode(value: string): ShardCheckpoint {
  const finished = value.endsWith(FINISHED);
  return { processedThrough: finished ? value.slice(0, -FINISHED.length) : value, finished };
}

export class MappingCheckpoints {
  /** What the store holds, by mapping: shard id → encoded checkpoint, and the stream ARN. */
  private readonly saved = new Map<string, Map<string, string>>();
  private writing: Promise<unknown> = Promise.resolve();

  private readonly store: CheckpointStore;
  /** Whether the positions outlive the process (a data directory's store). */
  private readonly durable: boolean;

  /** @param store a data directory's; without one, nothing is kept past the process. */
  constructor(store?: CheckpointStore) {
    this.store = store ?? new MemoryCheckpointStore();
    this.durable = store !== undefined;
  }

  /**
   * Creates a mapping (the config's, or the Lambda API's) with its UUID: with a data directory,
   * one that existed before a restart resumes from its saved checkpoint, and a new one saves
   * where it starts.
   */
  createMapping(
    mappings: MappingManager,
    input: CreateEventSourceMappingInput,
    uuid: string,
  ): EventSourceMappingConfiguration {
    const checkpoint = this.restore(uuid, input.EventSourceArn);
    const answer = mappings.create(input, checkpoint === undefined ? { uuid } : { checkpoint });
    if (checkpoint === undefined && this.durable) {
      const start = mappings.checkpoints().find((candidate) => candidate.uuid === uuid);
      if (start !== undefined) this.begin(start);
    }
    return answer;
  }

  /**
   * The saved checkpoint of a mapping, when it reads the same stream (a stream disabled and
   * enabled again is a new stream with a new ARN: its old positions mean nothing there).
   */
  restore(uuid: string, eventSourceArn: string): MappingCheckpoint | undefined {
    const shards = this.store.list(uuid);
    if (shards.get(STREAM_ARN) !== eventSourceArn) return undefined;
    const restored: Record<string, ShardCheckpoint> = Object.create(null);
    for (const [shardId, value] of shards) if (shardId !== STREAM_ARN) restored[shardId] = decode(value);
    this.saved.set(uuid, new Map(shards));
    return { uuid, eventSourceArn, shards: restored };
  }

  /**
   * Saves where a new mapping starts (LATEST: after the records its shards hold now), so that a
   * crash before its first batch finishes neither skips what was written meanwhile nor, from
   * TRIM_HORIZON, reads it twice.
   */
  begin(checkpoint: MappingCheckpoint): void {
    this.streamOf(checkpoint.uuid, checkpoint.eventSourceArn);
    for (const [shardId, shard] of Object.entries(checkpoint.shards))
      this.record(checkpoint.uuid, checkpoint.eventSourceArn, shardId, shard);
  }

  /** A shard's checkpoint moved (`MappingManagerOptions.onCheckpoint`): saved at once. */
  readonly record = (
    uuid: string,
    eventSourceArn: string,
    shardId: string,
    checkpoint: ShardCheckpoint,
  ): void => {
    const saved = this.streamOf(uuid, eventSourceArn);
    const value = encode(checkpoint);
    if (saved.get(shardId) === value) return;
    saved.set(shardId, value);
    this.write(this.store.set(uuid, shardId, value));
  };

  /** A deleted mapping: its positions go (DeleteEventSourceMapping). */
  forget(uuid: string): void {
    if (!this.saved.has(uuid) && this.store.list(uuid).size === 0) return;
    this.saved.delete(uuid);
    this.write(this.store.delete(uuid));
  }

  /** The saved positions of a mapping, reset when it reads another stream than before. */
  private streamOf(uuid: string, eventSourceArn: string): Map<string, string> {
    let saved = this.saved.get(uuid);
    if (saved === undefined) {
      saved = new Map();
      this.saved.set(uuid, saved);
    }
    if (saved.get(STREAM_ARN) !== eventSourceArn) {
      // A new stream: positions saved for an older one are dropped first.
      saved.clear();
      saved.set(STREAM_ARN, eventSourceArn);
      this.write(this.store.delete(uuid));
      this.write(this.store.set(uuid, STREAM_ARN, eventSourceArn));
    }
    return saved;
  }

  private write(done: Promise<void>): void {
    this.writing = Promise.all([this.writing, done]);
  }

  /** Resolves when every checkpoint recorded so far is as durable as the store makes it. */
  async flush(): Promise<void> {
    await this.writing;
  }
}
