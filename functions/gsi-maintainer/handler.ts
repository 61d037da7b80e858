import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { planIndexChange } from '../../core/indexes/indexChange.js';
import { injectPorts, type PortsContext } from '../shared/middlewares/injectPorts.js';
import type { Image, IndexWriter, Ports } from '../shared/ports.js';

/**
 * The gsi-maintainer: keeps global secondary indexes in step with their table, asynchronously, as
 * DynamoDB does. It reads the table's internal change feed (NEW_AND_OLD_IMAGES) and, per index:
 * puts the entry of an item entering the index, removes the entry of one leaving it, removes then
 * puts when an index key changed, rewrites the entry when only projected attributes changed, and
 * does nothing for items in the index neither before nor after (sparse indexes).
 */

/** The table ARN of a stream (or internal feed) ARN: `…:table/<name>/stream/<label>`. */
export function tableArnOf(eventSourceArn: string | undefined): string {
  if (eventSourceArn === undefined) throw new Error('gsi-maintainer: record without eventSourceARN');
  const at = eventSourceArn.indexOf('/stream/');
  return at === -1 ? eventSourceArn : eventSourceArn.slice(0, at);
}

/** Applies one change record to every global index of its table. */
export function recordHandler(record: DynamoDBRecord, writer: IndexWriter): void {
  const tableArn = tableArnOf(record.eventSourceARN);
  const oldImage = record.dynamodb?.OldImage as Image | undefined;
  const newImage = record.dynamodb?.NewImage as Image | undefined;
  for (const index of writer.globalIndexes(tableArn)) {
    switch (planIndexChange(index, oldImage as never, newImage as never)) {
      case 'put':
      case 'update':
        writer.put(tableArn, index.indexName, newImage!);
        break;
      case 'delete':
        writer.remove(tableArn, index.indexName, oldImage!);
        break;
      case 'replace':
        writer.remove(tableArn, index.indexName, oldImage!);
        writer.put(tableArn, index.indexName, newImage!);
        break;
      case 'none':
        break;
    }
  }
}

/**
 * Processes records in order: a later record of an item must not overtake an earlier one. On an
 * error, the failed record and every later one are reported (ReportBatchItemFailures), so the
 * mapping retries from there.
 */
export async function lambdaHandler(
  event: DynamoDBStreamEvent,
  context: Context,
): Promise<DynamoDBBatchResponse> {
  const writer = (context as PortsContext).ports?.indexWriter;
  if (writer === undefined) throw new Error('gsi-maintainer: no indexWriter port');
  const records = event.Records;
  for (let i = 0; i < records.length; i++) {
    try {
      recordHandler(records[i]!, writer);
    } catch {
      return {
        batchItemFailures: records
          .slice(i)
          .map((record) => ({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' })),
      };
    }
  }
  return { batchItemFailures: [] };
}

/** A handler with its own ports (tests, several engines in one process). */
export function createHandler(ports?: Ports) {
  return middy<DynamoDBStreamEvent, DynamoDBBatchResponse, Error, PortsContext>()
    .use(injectPorts({ ...(ports ? { ports } : {}), require: ['indexWriter'] }))
    .handler(lambdaHandler);
}

/** The handler as deployed: its ports come from `providePorts`. */
export const handler = createHandler();
