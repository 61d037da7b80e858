/**
 * Where event source mappings keep their place in each shard (docs/architecture.md §4): per
 * mapping and shard, the sequence number of the last record its function handled (a string the
 * mapping owns: it may carry more, e.g. `<sequence number>;finished` for a drained shard). A
 * restarted host resumes each mapping from here, so nothing is skipped and nothing handled is
 * delivered again beyond the at-least-once window.
 *
 * A port: the in-memory store below serves a host without a data directory; a data directory
 * (`infra/persistence`) logs every change in its write-ahead log and keeps the map in snapshots.
 *
 * @example
 * ```ts
 * const checkpoints: CheckpointStore = new MemoryCheckpointStore();
 * await checkpoints.set('orders-to-billing', 'shardId-00000001767225600000-1a2b3c4d', '100000000000000000042');
 * checkpoints.get('orders-to-billing', 'shardId-00000001767225600000-1a2b3c4d'); // '100000000000000000042'
 * ```
 */
export interface CheckpointStore {
  /** The checkpointed sequence number of a mapping in a shard, if any. */
  get(mappingId: string, shardId: string): string | undefined;
  /** Every checkpoint of a mapping, by shard id. */
  list(mappingId: string): ReadonlyMap<string, string>;
  /**
   * Records a checkpoint. The promise resolves once it is as durable as the host's writes (after
   * the fsync under `always`; at once in memory): await it before acknowledging upstream.
   */
  set(mappingId: string, shardId: string, sequenceNumber: string): Promise<void>;
  /** Forgets one shard's checkpoint, or (no shard) every checkpoint of a deleted mapping. */
  delete(mappingId: string, shardId?: string): Promise<void>;
}

/** Checkpoints by mapping, then shard: the state every `CheckpointStore` keeps. */
export type CheckpointMap = Map<string, Map<string, string>>;

/** Applies one change to a checkpoint map (shared by the stores and by log replay). */
export function applyCheckpoint(
  map: CheckpointMap,
  mappingId: string,
  shardId: string | undefined,
  sequenceNumber: string | undefined,
): void {
  if (sequenceNumber === undefined) {
    if (shardId === undefined) map.delete(mappingId);
    else map.get(mappingId)?.delete(shardId);
    return;
  }
  if (shardId === undefined) return;
  let shards = map.get(mappingId);
  if (shards === undefined) {
    shards = new Map();
    map.set(mappingId, shards);
  }
  shards.set(shardId, sequenceNumber);
}

const EMPTY: ReadonlyMap<string, string> = new Map();

/** Checkpoints held in memory only (a host without a data directory). */
export class MemoryCheckpointStore implements CheckpointStore {
  constructor(protected readonly map: CheckpointMap = new Map()) {}

  get(mappingId: string, shardId: string): string | undefined {
    return this.map.get(mappingId)?.get(shardId);
  }

  list(mappingId: string): ReadonlyMap<string, string> {
    return this.map.get(mappingId) ?? EMPTY;
  }

  set(mappingId: string, shardId: string, sequenceNumber: string): Promise<void> {
    applyCheckpoint(this.map, mappingId, shardId, sequenceNumber);
    return Promise.resolve();
  }

  delete(mappingId: string, shardId?: string): Promise<void> {
    applyCheckpoint(this.map, mappingId, shardId, undefined);
    return Promise.resolve();
  }
}
