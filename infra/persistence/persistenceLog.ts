import type { LogWriteError } from './errors.js';
import type { RecoveryReport } from './recovery.js';

/** Where a data directory says what it found and did (pino's `info`/`warn`/`error` fit). */
export interface PersistenceLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * What a start dropped or lost, said at the default level (warn): a damaged end of the log is
 * never silent (docs/persistence.md §3.2).
 */
export function logRecovery(logger: PersistenceLogger, report: RecoveryReport): void {
  const { dropped, unsynced, lastLsn: recovered } = report;
  if (unsynced !== undefined)
    logger.warn(
      { writtenLsn: unsynced.writtenLsn, records: unsynced.records, lastLsn: recovered },
      'the machine stopped before written records were fsynced: they are lost ' +
        '(--durability everysec and no had answered them; always had not)',
    );
  if (dropped === undefined) return;
  const { kind, segment, offset, bytes, records, lastLsn, reason, keptIn } = dropped;
  const fields = { segment, offset, bytes, records, lastLsn, reason };
  if (kind === 'torn')
    logger.warn(fields, 'dropped a torn write at the end of the log (a crash cut it short)');
  else
    logger.warn(
      { ...fields, keptIn },
      'started without records the log had written (--accept-data-loss); the dropped bytes are kept',
    );
}

/**
 * A failed log write, in one line, once: the calls that fail after it are answered without a line
 * each (docs/persistence.md §7).
 */
export function logLogFailure(logger: PersistenceLogger, error: LogWriteError): void {
  const cause = error.cause as NodeJS.ErrnoException | undefined;
  logger.error(
    { file: error.file, code: cause?.code, reason: cause?.message ?? error.message },
    'write-ahead log failed: changes can no longer be kept; every call answers InternalServerError until eddy restarts',
  );
}
