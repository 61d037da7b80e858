export { DataDirectory, LOCK_FILE } from './dataDirectory.js';
export { DURABILITY_MODES, type Durability } from './durability.js';
export {
  ACCEPT_DATA_LOSS_FLAG,
  CorruptDataError,
  DataDirectoryLockedError,
  DataLossError,
  IncompleteDataError,
  LogWriteError,
} from './errors.js';
export {
  Persistence,
  type PersistenceLogger,
  type PersistenceOptions,
  type PersistenceProblem,
} from './persistence.js';
export type { DroppedTail, RecoveryReport } from './recovery.js';
export { ReplayableClock } from './replayableClock.js';
export type { SnapshotResult } from './snapshotWriter.js';
