import type { Clock } from '../../core/clock.js';
import type { Engine } from '../../core/engine.js';
import type { ChangeLog } from '../../streams/changeLog.js';
import type { MappingManager } from '../../streams/mapping/index.js';
import type { ArchiveSink } from '../archive/archiveSink.js';
import type { LocalDestinations } from '../destinations/localDestinations.js';
import type { GsiMaintainer } from '../functions/gsiMaintainer.js';
import type { LocalFunctions } from '../functions/localFunctions.js';
import type { LambdaBackend } from '../lambda-api/backend.js';
import type { TtlExpirer } from '../schedules/ttlExpirer.js';

/**
 * What the console's read API reads: the parts of a running stack, as `LocalStack` holds them.
 * The browser never sees these objects; it sees the JSON the API makes of them (docs/console.md).
 * Getters where the stack replaces a part (`reset()` starts a new gsi-maintainer and ttl-expirer).
 */
export interface ConsoleSources {
  readonly engine: Engine;
  readonly changeLog: ChangeLog;
  readonly mappings: MappingManager;
  readonly functions: LocalFunctions;
  readonly destinations: LocalDestinations;
  /** The Lambda API's side: enabling a mapping goes through it, so a data directory keeps it. */
  readonly lambdaApi: LambdaBackend;
  gsi(): GsiMaintainer | undefined;
  ttl(): TtlExpirer | undefined;
  /** The TTL archive's sink and archived tables, when the stack archives. */
  archive?(): { readonly sink: ArchiveSink; readonly tables: readonly string[] } | undefined;
  readonly clock: Clock;
  readonly accountId: string;
  readonly region: string;
  /**
   * Moves a virtual clock (the test kit's stack) and waits until things settled; undefined on
   * the system clock, where the console shows the time and no buttons.
   */
  readonly advance?: (ms: number) => Promise<void>;
}
