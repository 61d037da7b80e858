import type { ArchivedTable } from '../archive/archiveSink.js';
import type { ConsoleSources } from './sources.js';

/** The archiver's side (`GET /_eddy/api/archive`): per archived table, what its sink wrote. */
export interface ArchiveSummary {
  readonly format: string;
  readonly prefix: string;
  readonly Tables: readonly ArchivedTable[];
}

/** Undefined when the stack archives nothing (no `archive` in its config). */
export function archiveSummary(sources: ConsoleSources): ArchiveSummary | undefined {
  const archive = sources.archive?.();
  if (archive === undefined) return undefined;
  const written = new Map(archive.sink.written().map((table) => [table.tableName, table]));
  return {
    format: archive.sink.format,
    prefix: archive.sink.prefix,
    // Every archived table, those whose sink wrote nothing yet too.
    Tables: archive.tables.map(
      (tableName) =>
        written.get(tableName) ?? {
          tableName,
          objects: 0,
          records: 0,
          bytes: 0,
          lastKey: '',
          lastCreatedAt: 0,
        },
    ),
  };
}
