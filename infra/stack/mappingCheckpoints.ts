import { createHash } from 'node:crypto';
import type { CheckpointStore } from '../../core/persistence/checkpointStore.js';
import type { MappingCheckpoint, ShardCheckpoint } from '../../streams/mapping/eventSourceMapping.js';
import type { MappingManager } from '../../streams/mapping/manager.js';

/**
 * Keeps the config's event source mappings where they were across restarts (DESIGN §1
 * "checkpoint"): each binding gets a UUID derived from its function and table, so the mapping
 * created at the next start is the same mapping; its shard positions are saved to a
 * `CheckpointStore` (a data directory's, under `--data-dir`) and handed back at creation.
 *
 * Positions are saved once a second and at close, not on every batch: a crash re-delivers at most
 * the last second's records, which Lambda's at-least-once delivery allows ("Lambda reads records
 * from the data stream and invokes your function ... at least once", Lambda developer guide,
 * "How Lambda processes records from DynamoDB Streams"); nothing is ever skipped.
 */

/** The UUID of a config binding: stable across restarts, distinct per function and table. */
export function bindingUuid(functionName: string, tableName: string): string {
  const hex = createHash('sha1').update(`eddy-binding\0${functionName}\0${tableName}`).digest('hex');
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
  private readonly saved = new Map<string, Map<string, string>>();
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: CheckpointStore,
    private readonly manager: MappingManager,
  ) {}

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

  /** Saves every second (the timer does not keep the process alive). */
  start(intervalMs = 1000): void {
    this.timer ??= setInterval(() => void this.save(), intervalMs).unref();
  }

  /** Saves what changed since the last save. */
  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      const writes: Promise<void>[] = [];
      for (const checkpoint of this.manager.checkpoints()) {
        let saved = this.saved.get(checkpoint.uuid);
        if (saved === undefined) {
          saved = new Map();
          this.saved.set(checkpoint.uuid, saved);
        }
        if (saved.get(STREAM_ARN) !== checkpoint.eventSourceArn) {
          // A new stream: positions saved for an older one are dropped first.
          await this.store.delete(checkpoint.uuid);
          saved.clear();
          saved.set(STREAM_ARN, checkpoint.eventSourceArn);
          writes.push(this.store.set(checkpoint.uuid, STREAM_ARN, checkpoint.eventSourceArn));
        }
        for (const [shardId, shard] of Object.entries(checkpoint.shards)) {
          const value = encode(shard);
          if (saved.get(shardId) === value) continue;
          saved.set(shardId, value);
          writes.push(this.store.set(checkpoint.uuid, shardId, value));
        }
      }
      await Promise.all(writes);
    });
    return this.saving;
  }

  /** Stops the timer after a last save. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.save();
  }
}
