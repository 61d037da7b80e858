/**
 * Errors of the data directory. Each message says what is wrong, where (file and byte offset for
 * damage), and what the user can do; `cause` carries the underlying error when there is one.
 */

/** Another live process holds the data directory's LOCK file. */
export class DataDirectoryLockedError extends Error {
  override readonly name = 'DataDirectoryLockedError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    options?: { cause?: unknown },
  ) {
    super(
      `Data directory ${dataDir} is in use by another eddy (process ${pid}). Stop it first, or use another ` +
        `--data-dir (if no eddy uses it, the process is another program: delete ${dataDir}/LOCK).`,
      options,
    );
  }
}

/** A log segment or snapshot is damaged where a torn write cannot explain it. */
export class CorruptDataError extends Error {
  override readonly name = 'CorruptDataError';
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${file} is damaged at byte ${offset} (${reason}). eddy will not start from a partial state: ` +
        'restore the data directory from a backup, or move it away to start empty.',
      options,
    );
  }
}

/** The data directory's files do not form a complete history (a missing snapshot or segment). */
export class IncompleteDataError extends Error {
  override readonly name = 'IncompleteDataError';
  constructor(
    readonly dataDir: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Data directory ${dataDir} is incomplete: ${reason}. eddy will not start from a partial state.`,
      options,
    );
  }
}

/** Writing the log failed (disk full, I/O error): writes can no longer be made durable. */
export class LogWriteError extends Error {
  override readonly name = 'LogWriteError';
  constructor(
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(`Writing the log ${file} failed; changes since are not durable`, options);
  }
}
