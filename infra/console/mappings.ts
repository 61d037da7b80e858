import type { MappingInspection } from '../../streams/mapping/index.js';
import type { ConsoleSources } from './sources.js';

/** A mapping: the run-time inspection, its settings as the Lambda API shows them, and whose it is. */
export interface MappingSummary extends MappingInspection {
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
    return {
      ...inspection,
      configuration,
      internal: !listed.has(inspection.uuid),
      tableName: sources.changeLog.stream(inspection.eventSourceArn)?.tableName,
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
