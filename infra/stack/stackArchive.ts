import type { Engine } from '../../core/engine.js';
import type { ArchiveSink } from '../archive/archiveSink.js';
import { archiverBinding, archiveSinkOf } from '../archive/binding.js';
import { BindingError } from '../bindings.js';
import type { ArchiveConfig } from '../config.js';
import type { LocalFunctions } from '../functions/localFunctions.js';
import type { EnvironmentLayer } from './processEnvironment.js';
import type { StreamBindings } from './streamBindings.js';

/** The parts of the stack the archiver is wired into. */
export interface ArchiveWiring {
  readonly engine: Engine;
  readonly functions: LocalFunctions;
  readonly streamBindings: StreamBindings;
  /** The stack's environment: whether the credentials in it are eddy's placeholders. */
  readonly environment: EnvironmentLayer;
  /** Where a relative sink folder starts. */
  readonly baseDirectory: string;
}

/**
 * TTL archival: the archiver bound with the TTL filter to each archived table's stream (by table
 * name, so it follows a recreated table as the project's bindings do).
 * @throws BindingError when an archived table's stream carries no old images.
 */
export function startArchive(
  archive: ArchiveConfig | undefined,
  wiring: ArchiveWiring,
): { sink: ArchiveSink; tables: readonly string[] } | undefined {
  if (archive === undefined) return undefined;
  const sink = archiveSinkOf(archive.sink as never, {
    cwd: wiring.baseDirectory,
    placeholderCredentials: () => wiring.environment.has('AWS_ACCESS_KEY_ID'),
  });
  for (const tableName of archive.tables) {
    const table = wiring.engine.region().tables.get(tableName);
    const viewType = table?.stream?.enabled ? table.stream.viewType : undefined;
    if (viewType !== 'OLD_IMAGE' && viewType !== 'NEW_AND_OLD_IMAGES') {
      throw new BindingError(
        'archive.tables',
        `table '${tableName}' needs a stream with old images (StreamViewType OLD_IMAGE or NEW_AND_OLD_IMAGES)`,
      );
    }
    const functionName = archive.tables.length === 1 ? 'archiver' : `archiver-${tableName}`;
    const { definition, mapping } = archiverBinding({
      eventSourceArn: table!.stream!.arn,
      sink,
      functionName,
      ...(archive.onFailure === undefined ? {} : { onFailureDestination: archive.onFailure }),
    });
    wiring.functions.define(definition);
    const { FunctionName: _, EventSourceArn: __, ...settings } = mapping;
    wiring.streamBindings.bind({ functionName, tableName, settings, where: 'archive' });
  }
  return { sink, tables: archive.tables };
}
