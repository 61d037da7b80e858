import type { MappingInspection } from '../../streams/mapping/index.js';
import { ordinalOf } from '../../streams/sequenceNumber.js';
import type { ConsoleSources } from './sources.js';

type ShardPosition = MappingInspection['shards'][number];

/**
 * A shard's position, and whether the mapping has read anything of it: its checkpoint is then
 * before the shard's first sequence number (the 21-digit `100000000000000000000`, ordinal 0, on
 * a stream's first shard), a number that names no record.
 */
export interface MappingShardSummary extends ShardPosition {
  readonly nothingRead: boolean;
}

/** A mapping: the run-time inspection, its settings as the Lambda API shows them, and whose it is. */
export interface MappingSummary extends Omit<MappingInspection, 'shards'> {
  readonly shards: MappingShardSummary[];
  /** GetEventSourceMapping's answer (batch size, window, filters, retries, bisect, destination). */
  readonly configuration: Record<string, unknown> | undefined;
  /** eddy's own (the gsi-maintainer's, say): not listed by the Lambda API, not to be changed. */
  readonly internal: boolean;
  readonly tableName: string | undefined;
}

export function listMappings(sources: ConsoleSources): MappingSummary[] {
  const listed = new Set(sources.lambdaApi.listedMappings().map((mapping) => mapping.UUID));
  const inspections = sources.mappings.inspect() as MappingInspection[];
  return inspections.map((inspection) => {
    let configuration: Record<string, unknown> | undefined;
    try {
      configuration = { ...sources.mappings.get(inspection.uuid) };
    } catch {
      configuration = undefined;
    }
    const stream = sources.changeLog.stream(inspection.eventSourceArn);
    const startOf = new Map(stream?.shards.map((shard) => [shard.id, shard.startOrdinal]));
    return {
      ...inspection,
      shards: inspection.shards.map((shard) => ({
        ...shard,
        nothingRead: ordinalOf(shard.processedThrough) < (startOf.get(shard.shardId) ?? 1),
      })),
      configuration,
      internal: !listed.has(inspection.uuid),
      tableName: stream?.tableName,
    };
  });
}

/**
 * Enables or disables a mapping through the Lambda API's backend (UpdateEventSourceMapping), so
 * a data directory keeps the change across restarts.
 */
export function setMappingEnabled(sources: ConsoleSources, uuid: string, enabled: boolean) {
  return sources.lambdaApi.updateMapping({ UUID: uuid, Enabled: enabled });
}
