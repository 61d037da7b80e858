import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { injectPorts } from '../shared/middlewares/injectPorts.js';
import type { ArchiveBatch, ArchivedObject, Image, Ports } from '../shared/ports.js';
import { archivedItemOf, planBatches } from './batches.js';
import { type ArchiverContext, type ArchiverOptions, archiverOptions } from './settings.js';

export { ArchiverError, isTtlRemove, TTL_PRINCIPAL_ID } from './batches.js';
export {
  ARCHIVER_MAPPING_SETTINGS,
  type ArchiverOptions,
  TTL_DELETE_FILTER_CRITERIA,
  TTL_DELETE_PATTERN,
} from './settings.js';

/**
 * The archiver: the "Time to live for archival" building block of the developer guide
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/data-modeling-blocks.html).
 * TTL deletes flow through the table's stream; a mapping with the TTL filter
 * (`TTL_DELETE_FILTER_CRITERIA`) hands them to this function, which writes each batch's expired
 * items (their OldImages) to long-term storage through the `Sink` port.
 *
 * Exactly-once archive contents from at-least-once delivery: a batch becomes one object whose
 * name derives from the batch (table, day, shard, first and last sequence number), so a retried
 * batch overwrites the object of its earlier attempt instead of adding a second copy.
 *
 * @example
 * ```ts
 * import { createHandler } from './functions/archiver/handler.js';
 * import { fileSink } from './infra/archive/index.js';
 * const archiver = createHandler({ sink: fileSink({ directory: '.eddy/archive' }) });
 * ```
 */

/**
 * The item a record archives (its OldImage), or `undefined` for a record that is not a TTL delete:
 * such a record is skipped, never archived, whatever the mapping's filter let through.
 */
export function recordHandler(record: DynamoDBRecord): Image | undefined {
  return archivedItemOf(record);
}

/**
 * Every record of the batch as failed: the mapping retries the whole batch
 * (docs/streams-and-lambda.md §2.4.2).
 */
function failAll(event: DynamoDBStreamEvent): DynamoDBBatchResponse {
  return {
    batchItemFailures: event.Records.map((record) => ({
      itemIdentifier: record.dynamodb?.SequenceNumber ?? '',
    })),
  };
}

/**
 * Archives the batch's TTL deletes, one object per source table. When any record cannot be
 * archived or the sink fails, every record of the batch is reported failed
 * (ReportBatchItemFailures, docs/streams-and-lambda.md §2.4): the retry writes the same object again.
 */
export async function lambdaHandler(
  event: DynamoDBStreamEvent,
  context: Context,
): Promise<DynamoDBBatchResponse> {
  const { ports, archiver } = context as ArchiverContext;
  const sink = ports?.sink;
  if (sink === undefined) throw new Error('archiver: no sink port');
  let batches: ArchiveBatch[] = [];
  try {
    const plan = planBatches(event);
    batches = plan.batches;
    const objects: ArchivedObject[] = [];
    // One table after the other: a mapping reads one stream, so there is normally one batch.
    for (const batch of batches) objects.push(await sink.put(batch));
    archiver?.onArchived?.(objects, { skipped: plan.skipped });
    return { batchItemFailures: [] };
  } catch (error) {
    const report = archiver?.onError ?? ((cause: unknown) => console.error(failureLine(event, cause)));
    report(error, batches);
    return failAll(event);
  }
}

/**
 * One log line per failed batch, with the reason: the mapping retries the batch (with backoff)
 * and a sink that stays down fails every retry, so a stack trace each time would bury the log.
 */
export function failureLine(event: DynamoDBStreamEvent, cause: unknown): string {
  const reason = (cause instanceof Error ? cause.message : String(cause)).replace(/\s*\n\s*/g, ' ');
  const count = event.Records.length;
  return `archiver: could not archive a batch of ${count} ${count === 1 ? 'record' : 'records'} (reported failed, for the mapping to retry): ${reason}`;
}

/** A handler with its own ports and options (the host's wiring, tests, several archives). */
export function createHandler(ports?: Ports, options?: ArchiverOptions) {
  return middy<DynamoDBStreamEvent, DynamoDBBatchResponse, Error, ArchiverContext>()
    .use(injectPorts({ ...(ports ? { ports } : {}), require: ['sink'] }))
    .use(archiverOptions(options))
    .handler(lambdaHandler);
}

/** The handler as deployed: its sink comes from `providePorts`. */
export const handler = createHandler();
