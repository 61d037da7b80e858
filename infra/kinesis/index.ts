import type { Engine, TableChange } from '../../core/engine.js';
import { checksSettled, KinesisMessages, parseStreamArn } from '../../core/kinesis/destinations.js';
import type { CheckpointStore } from '../../core/persistence/checkpointStore.js';
import type { ChangeLog } from '../../streams/changeLog.js';
import { type KinesisEndpointOptions, KinesisWriter } from './kinesisClient.js';
import { DestinationPublisher, type PublisherPosition } from './publisher.js';

export { type KinesisEndpointOptions, KinesisWriter } from './kinesisClient.js';
export { kinesisRecordText, partitionKeyOf } from './kinesisRecord.js';
export { DestinationPublisher, PUT_RECORDS_LIMITS } from './publisher.js';

export interface KinesisDestinations {
  /** Resolves once every change committed so far to a table with a destination is written. */
  settled(): Promise<void>;
  /** Records written, calls made, records sent again, records too large, over all destinations. */
  counts(): { records: number; calls: number; retries: number; dropped: number };
  /**
   * A data directory is about to be recovered (docs/kinesis-destinations.md §3.3): writers made
   * from now on gather the changes the log replays and write nothing until `resume`.
   */
  hold(): void;
  /**
   * Makes a (held) writer for every live destination the tables hold now: before log replay.
   * Tables changed afterwards are followed as the engine announces them.
   */
  register(): void;
  /**
   * Starts writing. With `positions` (a data directory's checkpoint store), each destination
   * skips what the previous run wrote and keeps how far it writes from now on.
   */
  resume(positions?: CheckpointStore): void;
  /** Whether any change committed is not written yet (a snapshot would take it from the log). */
  hasUnsent(): boolean;
  /** Drops every publisher (the test kit's `reset`, whose tables are made anew). */
  reset(): void;
  /** Stops writing (what is not written yet is not). */
  close(): void;
}

/**
 * A destination's written-through time in a checkpoint store, under a key no event source
 * mapping uses (mapping ids are UUIDs): `kinesis <table id> <stream ARN>`.
 */
function positionOf(store: CheckpointStore, key: string): PublisherPosition {
  const id = `kinesis ${key}`;
  return {
    get: () => {
      const value = store.get(id, '-');
      return value === undefined ? undefined : Number(value);
    },
    set: (writtenThrough) => {
      void store.set(id, '-', String(writtenThrough)).catch(() => undefined);
    },
  };
}

/**
 * Kinesis Data Streams destinations for an engine (docs/kinesis-destinations.md §3): answers the
 * engine's stream check over the endpoint, and runs one `DestinationPublisher` per live
 * destination, started and stopped as the destinations' states change (`Engine.onTableChange`),
 * reading the tables' internal feeds as the gsi-maintainer does.
 */
export function attachKinesis(
  engine: Engine,
  changeLog: ChangeLog,
  options: KinesisEndpointOptions,
  log: (level: 'warn' | 'error', message: string) => void = () => {},
): KinesisDestinations {
  const writers = new Map<string, KinesisWriter>();
  const writerFor = (region: string) => {
    let writer = writers.get(region);
    if (writer === undefined) writers.set(region, (writer = new KinesisWriter(options, region)));
    return writer;
  };
  engine.kinesisStreamCheck = async (streamArn, table) => {
    const writer = writerFor(table.region);
    const streamName = parseStreamArn(streamArn)!.streamName;
    let status: string | undefined;
    try {
      status = await writer.streamStatus(streamName);
    } catch (error) {
      // eddy's text: the service always reaches Kinesis.
      return `eddy could not reach ${writer.location}: ${error instanceof Error ? error.message : String(error)}`;
    }
    // A missing stream, or one still CREATING, reads as a permission problem (recorded 2026).
    if (status === undefined || status === 'CREATING') return KinesisMessages.noPermission;
    if (status === 'DELETING') return KinesisMessages.notActive;
    return undefined;
  };

  /** By table id and stream ARN: a table re-created under the same name starts afresh. */
  const publishers = new Map<string, DestinationPublisher>();
  let held = false;
  const totals = { records: 0, calls: 0, retries: 0, dropped: 0 };

  const follow = ({ region, table, kind }: TableChange) => {
    if (kind === 'deleted') {
      // The feed has ended: publishers write what is left and close themselves.
      for (const [key, publisher] of publishers) if (key.startsWith(`${table.tableId} `)) publisher.wake();
      return;
    }
    for (const destination of table.kinesisDestinations) {
      const key = `${table.tableId} ${destination.streamArn}`;
      let publisher = publishers.get(key);
      const status = destination.status;
      if (
        publisher === undefined &&
        (status === 'ENABLING' || status === 'ACTIVE' || status === 'UPDATING')
      ) {
        const stream = parseStreamArn(destination.streamArn);
        if (stream === undefined) continue;
        const feed = changeLog.internalFeed(region.accountId, region.name, table.name);
        const created: DestinationPublisher = new DestinationPublisher(
          feed,
          destination,
          stream.streamName,
          { clock: engine.clock, writer: writerFor(region.name), region: region.name, log },
          () => {
            publishers.delete(key);
            for (const name of Object.keys(totals) as (keyof typeof totals)[])
              totals[name] += created.counts[name];
          },
          held,
        );
        publishers.set(key, created);
        publisher = created;
      }
      if (publisher === undefined) continue;
      publisher.follows(destination);
      if (status === 'ENABLE_FAILED') publisher.close();
      else if (status === 'DISABLING' || status === 'DISABLED') publisher.stopAfterCurrent();
      else publisher.wake();
    }
  };
  const unsubscribe = engine.onTableChange(follow);

  return {
    async settled() {
      await checksSettled(engine);
      while ([...publishers.values()].some((publisher) => !publisher.idle))
        await new Promise((resolve) => setTimeout(resolve, 5));
    },
    counts() {
      const sum = { ...totals };
      for (const publisher of publishers.values())
        for (const name of Object.keys(sum) as (keyof typeof sum)[]) sum[name] += publisher.counts[name];
      return sum;
    },
    hold() {
      held = true;
    },
    register() {
      for (const region of engine.allRegions())
        for (const table of region.tables.values())
          if (table.kinesisDestinations.length > 0) follow({ region, table, kind: 'updated' });
    },
    resume(positions) {
      // Nothing to follow again: `register` followed what the snapshot held, every table the
      // replay (or the end of its transitions) changed since was announced to `follow`, and an
      // engine without a data directory holds no table yet.
      held = false;
      for (const [key, publisher] of publishers) publisher.release(positions && positionOf(positions, key));
    },
    hasUnsent() {
      return [...publishers.values()].some((publisher) => publisher.unsent);
    },
    reset() {
      for (const publisher of [...publishers.values()]) publisher.close();
    },
    close() {
      unsubscribe();
      for (const publisher of [...publishers.values()]) publisher.close();
      for (const writer of writers.values()) writer.close();
    },
  };
}
