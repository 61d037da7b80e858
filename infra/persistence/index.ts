export { DataDirectory, LOCK_FILE } from './dataDirectory.js';
export { CorruptDataError, DataDirectoryLockedError, IncompleteDataError, LogWriteError } from './errors.js';
export { Persistence, type PersistenceLogger, type PersistenceOptions } from './persistence.js';
export type { RecoveryReport } from './recovery.js';
export { ReplayableClock } from './replayableClock.js';
export type { SnapshotResult } from './snapshotWriter.js';
export { DURABILITY_MODES, type Durability } from './walWriter.js';
