import { ChangeEvent, type ChangeListener } from '../../core/changeEvent.js';
import type { Clock } from '../../core/clock.js';
import type { Engine } from '../../core/engine.js';
import { DynamoDbError } from '../../core/errors/index.js';
import { itemKeyOf } from '../../core/model/keyCodec.js';
import type { Region } from '../../core/store/region.js';
import { StoredItem } from '../../core/store/storedItem.js';
import type { Table } from '../../core/store/table.js';
import { extractKey } from '../../core/validations/keys.js';
import type { ChangeSource } from '../../streams/changeSource.js';
import type { RecordedChange } from './recordedChange.js';

/** A recorded key that does not fit the table's key schema. */
export class ReplayKeyError extends Error {
  override readonly name = 'ReplayKeyError';
}

/**
 * The change source of a replay (streams/changeSource.ts): tables, stream settings and the clock
 * come from a scratch engine that holds no items, and the changes come from a recording instead
 * of writes. `replay` commits a recorded change as the engine's commit point would (one
 * ChangeEvent, synchronously, to every listener), so the change log, its shards and the event
 * source mappings downstream run exactly as they do behind a live table.
 *
 * @example
 * ```ts
 * const source = new ReplaySource(engine);
 * const changeLog = new ChangeLog(source);
 * source.replay(table, change); // filed into the table's stream like a write
 * ```
 */
export class ReplaySource implements ChangeSource {
  private readonly listeners = new Set<ChangeListener>();
  private sequence = 0;

  constructor(
    private readonly engine: Engine,
    private readonly onListenerError: (error: unknown) => void = () => {},
  ) {}

  get clock(): Clock {
    return this.engine.clock;
  }

  get transientStatusDelayMs(): number {
    return this.engine.transientStatusDelayMs;
  }

  get defaultAccountId(): string {
    return this.engine.defaultAccountId;
  }

  get defaultRegion(): string {
    return this.engine.defaultRegion;
  }

  onCommit(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  allRegions(): Iterable<Region> {
    return this.engine.allRegions();
  }

  onTableChange(listener: () => void): () => void {
    return this.engine.onTableChange(listener);
  }

  region(accountId?: string, regionName?: string): Region {
    return this.engine.region(accountId, regionName);
  }

  /**
   * Commits a recorded change to `table` at the clock's current time.
   * @throws ReplayKeyError when the recorded keys do not match the table's key schema.
   */
  replay(table: Table, change: RecordedChange): ChangeEvent {
    let key: ReturnType<typeof extractKey>;
    try {
      key = extractKey(change.keys, table.key);
    } catch (error) {
      if (!(error instanceof DynamoDbError)) throw error;
      const schema = table.keySchema.map((element) => element.AttributeName).join(' + ');
      throw new ReplayKeyError(
        `Keys do not match the key schema of ${table.name} (${schema}): ${error.message}`,
        {
          cause: error,
        },
      );
    }
    const sequence = ++this.sequence;
    const event = new ChangeEvent(
      sequence,
      sequence,
      table.ref(this.engine.defaultAccountId, this.engine.defaultRegion),
      change.eventName,
      key.keys,
      // The item key exactly as the engine's commit point encodes it (core/engine.ts
      // `commitAcross`): shards and ParallelizationFactor lanes are chosen by it, so one item's
      // records land on one shard and one lane, in order, as they would behind a live table.
      itemKeyOf(key.hashKey, key.rangeKey),
      change.oldImage === undefined ? undefined : StoredItem.fromItem(change.oldImage),
      change.newImage === undefined ? undefined : StoredItem.fromItem(change.newImage),
      this.engine.clock.now(),
      change.identity,
    );
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
    return event;
  }
}
