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

/** The flag (`PersistenceOptions.acceptDataLoss`) that starts from what is left of a damaged log. */
export const ACCEPT_DATA_LOSS_FLAG = '--accept-data-loss';

/** What starting with `--accept-data-loss` would keep, for the messages that offer it. */
export interface Leftover {
  /** The last record kept. */
  readonly lastLsn: number;
  /** Where the dropped bytes would be moved. */
  readonly damagedDir: string;
}

function remedy(leftover: Leftover | undefined): string {
  if (leftover === undefined)
    return 'restore the data directory from a backup, or move it away to start empty.';
  return (
    'restore the data directory from a backup, move it away to start empty, or start with what is ' +
    `left (the log up to LSN ${leftover.lastLsn}; the dropped bytes are kept in ${leftover.damagedDir}) ` +
    `with ${ACCEPT_DATA_LOSS_FLAG}.`
  );
}

/** A log segment or snapshot is damaged where a torn write cannot explain it. */
export class CorruptDataError extends Error {
  override readonly name = 'CorruptDataError';
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly reason: string,
    options?: { cause?: unknown; leftover?: Leftover },
  ) {
    super(
      `${file} is damaged at byte ${offset} (${reason}). eddy will not start from a partial state: ` +
        remedy(options?.leftover),
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
    options?: { cause?: unknown; leftover?: Leftover },
  ) {
    super(
      `Data directory ${dataDir} is incomplete: ${reason}. eddy will not start from a partial state` +
        (options?.leftover === undefined ? '.' : `: ${remedy(options.leftover)}`),
      options,
    );
  }
}

/**
 * The log ends before records its mark (`durableMark.ts`) proves were fsynced, or written to the
 * OS since the machine started: they were lost after being written, not torn by a crash.
 */
export class DataLossError extends Error {
  override readonly name = 'DataLossError';
  constructor(
    /** The segment where the log stops, and the byte offset. */
    readonly file: string,
    readonly offset: number,
    /** Why it stops there (`the end of the file`, `a checksum mismatch`...). */
    readonly reason: string,
    /** The last record recovered, and the last one the mark proves was there. */
    readonly lastLsn: number,
    readonly claimedLsn: number,
    readonly basis: 'fsynced' | 'written',
    leftover: Leftover,
  ) {
    const how =
      basis === 'fsynced' ? 'had been fsynced' : 'had been written to the OS since the machine last started';
    const lost = claimedLsn - lastLsn;
    super(
      `${file}: the log ends at LSN ${lastLsn} (byte ${offset}: ${reason}), but records up to LSN ` +
        `${claimedLsn} ${how} (log.mark): ${lost} record${lost === 1 ? ' is' : 's are'} lost. eddy will ` +
        `not start without ${lost === 1 ? 'it' : 'them'}: ${remedy(leftover)}`,
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
    const cause = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`Writing the log ${file} failed${cause}; changes since are not durable`, options);
  }
}
