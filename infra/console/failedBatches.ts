import type { DynamoDBRecord } from 'aws-lambda';
import type { InvocationRecord, MappingInspection } from '../../streams/mapping/index.js';
import { ordinalOf } from '../../streams/sequenceNumber.js';
import type { ConsoleSources } from './sources.js';
import { recordAt } from './streamRecords.js';

/** A failed batch as the on-failure destination received it, with the mapping it came from. */
export interface FailedBatch {
  readonly mappingUuid: string;
  readonly functionName: string;
  readonly destination: string;
  readonly record: InvocationRecord;
}

/** Every on-failure destination's records (SQS and SNS messages; S3 objects), newest last. */
export function listFailedBatches(sources: ConsoleSources): FailedBatch[] {
  const batches: FailedBatch[] = [];
  for (const mapping of sources.mappings.inspect() as MappingInspection[]) {
    let destination: string | undefined;
    try {
      destination = sources.mappings.get(mapping.uuid).DestinationConfig?.OnFailure?.Destination;
    } catch {
      continue;
    }
    if (destination === undefined || destination === '') continue;
    const service = /^arn:aws[a-z-]*:(sqs|sns|s3):/.exec(destination)?.[1];
    const records: InvocationRecord[] =
      service === 's3'
        ? sources.destinations.bucket(destination).documents()
        : service === undefined
          ? []
          : sources.destinations.queue(destination).records();
    for (const record of records)
      batches.push({ mappingUuid: mapping.uuid, functionName: mapping.functionName, destination, record });
  }
  return batches;
}

/**
 * The records of a failed batch, read again from its shard by the sequence numbers the
 * destination kept (undefined when the stream or shard is gone, or the records were trimmed).
 */
export function recordsOfBatch(
  sources: ConsoleSources,
  record: InvocationRecord,
): DynamoDBRecord[] | undefined {
  const info = record.DDBStreamBatchInfo;
  const stream = sources.changeLog.stream(info.streamArn);
  const shard = stream?.shard(info.shardId);
  if (stream === undefined || shard === undefined) return undefined;
  const first = ordinalOf(info.startSequenceNumber);
  const last = ordinalOf(info.endSequenceNumber);
  if (first <= shard.trimmedThrough) return undefined;
  const records: DynamoDBRecord[] = [];
  for (let index = shard.indexAtOrdinal(first); index < shard.size; index++) {
    const position = shard.positionAt(index);
    if (position + 1 > last) break;
    records.push(recordAt(stream, position));
  }
  return records;
}
