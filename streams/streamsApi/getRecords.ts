import { ExpiredIteratorException, ResourceNotFoundException } from '../../core/errors/index.js';
import { readShard } from '../reader.js';
import { type RecordSource, sizeBytesOf, toWireRecord } from '../streamView.js';
import { defineStreamsOperation } from './operation.js';
import { limit, StreamsMessages, streamNotFound } from './shapes.js';

export interface GetRecordsInput {
  ShardIterator: string;
  Limit?: number;
}

/**
 * GetRecords returns at most 1 MB of data (docs/streams-and-lambda.md §1.5.5), counted as the records'
 * SizeBytes.
 */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * GetRecords (docs/streams-and-lambda.md §1.5.5–1.5.9): up to `Limit` (1..1000, default 1000) records or 1
 * MB, in sequence-number order. `Records` is always present (empty when nothing is there yet) and
 * `NextShardIterator` too, except once a closed shard has been read to its end, where the key is
 * absent (as real DynamoDB does; the docs say "null"). An iterator older than 15 minutes on the
 * engine clock is ExpiredIteratorException; one pointing at trimmed records,
 * TrimmedDataAccessException; a malformed one, ValidationException.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_GetRecords.html
 */
export const getRecords = defineStreamsOperation<GetRecordsInput>({
  name: 'GetRecords',
  shape: {
    ShardIterator: { kind: 'string', required: true, minLength: 1, maxLength: 2048 },
    Limit: limit(1000),
  },
  execute(context, input) {
    const state = context.iterators.decode(input.ShardIterator);
    if (context.now - state.issuedAt > context.changeLog.iteratorLifetimeMs)
      throw new ExpiredIteratorException(StreamsMessages.iteratorExpired);
    const stream = context.findStream(state.streamArn);
    if (stream === undefined) throw streamNotFound(state.streamArn);
    const shard = stream.shard(state.shardId);
    if (shard === undefined) throw new ResourceNotFoundException(StreamsMessages.shardNotFound);
    // More readers of the shard than the table allows: LimitExceededException (docs/capacity.md §5.1).
    context.changeLog.readers.read(stream, shard.id, state.chain);
    const source: RecordSource = {
      region: stream.region,
      viewType: stream.viewType,
      eventSourceArn: undefined,
      salt: stream.salt,
    };
    const read = readShard(
      stream,
      shard,
      state.ordinal,
      {
        limit: input.Limit ?? 1000,
        maxBytes: MAX_RESPONSE_BYTES,
        sizeOf: (event) => sizeBytesOf(event, stream.viewType),
      },
      (ordinal, event) => toWireRecord(event, ordinal, source),
    );
    const output: Record<string, unknown> = { Records: read.records };
    if (!read.endOfShard) {
      output.NextShardIterator = context.iterators.encode({
        streamArn: stream.arn,
        shardId: shard.id,
        ordinal: read.nextOrdinal,
        issuedAt: context.now,
        chain: state.chain,
      });
    } else {
      context.changeLog.readers.finished(stream, shard.id, state.chain);
    }
    return output;
  },
});
