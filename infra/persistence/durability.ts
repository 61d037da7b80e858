// Apart from the log writer so the command line can offer the modes without loading the data
// directory's code (a start without --data-dir never loads it: infra/stack/localStack.ts).

/**
 * When a write is durable, like Redis' `appendfsync`. In every mode the log is written (to the
 * OS) at the end of the event-loop turn that made the change, before its answer goes out, so a
 * crash of eddy alone loses nothing acknowledged; the modes differ in fsyncs:
 * - `always`: the answer waits for the fsync. Group commit: while one fsync runs, the records of
 *   every request arriving meanwhile gather, and the next fsync takes them all.
 * - `everysec` (the server's default): fsync once a second: a crash of the machine loses up to
 *   about a second.
 * - `no`: fsync when the OS decides (and at shutdown and snapshots).
 */
export type Durability = 'always' | 'everysec' | 'no';
export const DURABILITY_MODES: readonly Durability[] = ['always', 'everysec', 'no'];
