import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse } from 'aws-lambda';
import { injectPorts, type PortsContext } from '../shared/middlewares/injectPorts.js';
import type { IndexWriter, Ports } from '../shared/ports.js';

/**
 * The gsi-maintainer's internal entry point: the changes of a table's own change feed, handed
 * over as they are (a typed port) instead of as Lambda `DynamoDBRecord`s, and applied by the
 * engine's index writer from the items' stored texts (`core/indexes/globalIndexApplier.ts`: the
 * rule of `recordHandler`, evaluated on what it reads). The envelope is what differs: no Lambda
 * record is built and no image decoded.
 *
 * Measured with bench/gsi.ts (two GSIs, every write moving both entries): building a Lambda
 * record per change, decoding both images and going through `put`/`remove` per index cost
 * ~10 µs a change besides the B-tree updates, and most of the garbage; this path ~3 µs. The
 * Lambda-shaped `handler` (handler.ts) stays what deploys and what tests call with real
 * `DynamoDBStreamEvent`s; as there, changes are applied in order and a failure is reported with
 * every later change (ReportBatchItemFailures), so the mapping retries from there.
 */

/** One change of a table's internal feed. */
export interface FeedChange<C = unknown> {
  /** The change as the engine's index writer takes it (opaque here). */
  readonly change: C;
  /** The change's SequenceNumber (reported back when it fails). */
  readonly sequenceNumber: string;
}

/** What the internal mapping invokes the function with: changes in feed order. */
export interface FeedEvent<C = unknown> {
  readonly Changes: readonly FeedChange<C>[];
}

/** An index writer that also takes the changes of its own engine's feeds. */
export interface FeedIndexWriter<C = unknown> extends IndexWriter {
  /** Applies one change to every global index of its table. */
  applyFeedChange(change: C): void;
  /**
   * Optionally, the changes of a batch in order, until one fails: returns how many were applied
   * (a writer that looks each table up once per batch rather than once per change).
   */
  applyFeedChanges?(changes: readonly FeedChange<C>[]): number;
}

function isFeedWriter(writer: IndexWriter): writer is FeedIndexWriter {
  return typeof (writer as Partial<FeedIndexWriter>).applyFeedChange === 'function';
}

export async function feedHandler(event: FeedEvent, context: Context): Promise<DynamoDBBatchResponse> {
  const writer = (context as PortsContext).ports?.indexWriter;
  if (writer === undefined) throw new Error('gsi-maintainer: no indexWriter port');
  if (!isFeedWriter(writer)) throw new Error('gsi-maintainer: the indexWriter port takes no feed changes');
  const changes = event.Changes;
  if (writer.applyFeedChanges !== undefined) {
    const applied = writer.applyFeedChanges(changes);
    return {
      batchItemFailures: changes.slice(applied).map((failed) => ({ itemIdentifier: failed.sequenceNumber })),
    };
  }
  for (let i = 0; i < changes.length; i++) {
    try {
      writer.applyFeedChange(changes[i]!.change);
    } catch {
      return {
        batchItemFailures: changes.slice(i).map((failed) => ({ itemIdentifier: failed.sequenceNumber })),
      };
    }
  }
  return { batchItemFailures: [] };
}

/** The internal entry point with its ports, wrapped like `handler` (middy, `injectPorts`). */
export function createFeedHandler(ports?: Ports) {
  return middy<FeedEvent, DynamoDBBatchResponse, Error, PortsContext>()
    .use(injectPorts({ ...(ports ? { ports } : {}), require: ['indexWriter'] }))
    .handler(feedHandler);
}
