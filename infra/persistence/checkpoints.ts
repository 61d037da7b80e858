import {
  applyCheckpoint,
  type CheckpointMap,
  MemoryCheckpointStore,
} from '../../core/persistence/checkpointStore.js';

/** Appends a checkpoint change to the log; resolves when it is durable (per the durability mode). */
export type CheckpointLogger = (
  mappingId: string,
  shardId: string | undefined,
  sequenceNumber: string | undefined,
) => Promise<void>;

/**
 * The data directory's `CheckpointStore`: the map in memory (restored by recovery, kept in
 * snapshots), every change also logged. Reads never touch the disk.
 */
export class LoggedCheckpointStore extends MemoryCheckpointStore {
  constructor(
    map: CheckpointMap,
    private readonly log: CheckpointLogger,
  ) {
    super(map);
  }

  override set(mappingId: string, shardId: string, sequenceNumber: string): Promise<void> {
    applyCheckpoint(this.map, mappingId, shardId, sequenceNumber);
    return this.log(mappingId, shardId, sequenceNumber);
  }

  override delete(mappingId: string, shardId?: string): Promise<void> {
    applyCheckpoint(this.map, mappingId, shardId, undefined);
    return this.log(mappingId, shardId, undefined);
  }
}
