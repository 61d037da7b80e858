import { ResourceNotFoundException, ValidationException } from '../../core/errors/index.js';
import { iteratorOrdinal, type ShardIteratorType } from '../reader.js';
import { isSequenceNumber } from '../sequenceNumber.js';
import { defineStreamsOperation } from './operation.js';
import {
  parseStreamArn,
  StreamsMessages,
  sequenceNumber,
  shardId,
  shardIteratorType,
  streamArn,
  streamNotFound,
} from './shapes.js';
import { newChain } from './shardIterator.js';

export interface GetShardIteratorInput {
  StreamArn: string;
  ShardId: string;
  ShardIteratorType: ShardIteratorType;
  SequenceNumber?: string;
}

/**
 * GetShardIterator (docs/streams-and-lambda.md §1.5.1–1.5.4): TRIM_HORIZON (oldest untrimmed record), LATEST
 * (after the newest), AT_/AFTER_SEQUENCE_NUMBER. SequenceNumber is required for the last two and
 * forbidden for the first two; an unknown shard of a valid stream is ResourceNotFoundException;
 * a sequence number older than the trim point is TrimmedDataAccessException.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_GetShardIterator.html
 */
export const getShardIterator = defineStreamsOperation<GetShardIteratorInput>({
  name: 'GetShardIterator',
  shape: {
    StreamArn: { ...streamArn, required: true },
    ShardId: { ...shardId, required: true },
    ShardIteratorType: shardIteratorType,
    SequenceNumber: sequenceNumber,
  },
  validate(input) {
    const type = input.ShardIteratorType;
    const needsSequence = type === 'AT_SEQUENCE_NUMBER' || type === 'AFTER_SEQUENCE_NUMBER';
    const given = input.SequenceNumber !== undefined;
    if (needsSequence !== given)
      throw new ValidationException(StreamsMessages.sequenceNumberRule(type, given));
    if (given && !isSequenceNumber(input.SequenceNumber!))
      throw new ValidationException(StreamsMessages.invalidSequenceNumber(input.SequenceNumber!));
    parseStreamArn(input.StreamArn);
  },
  execute(context, input) {
    const stream = context.findStream(input.StreamArn);
    if (stream === undefined) throw streamNotFound(input.StreamArn);
    const shard = stream.shard(input.ShardId);
    if (shard === undefined) throw new ResourceNotFoundException(StreamsMessages.shardNotFound);
    const ordinal = iteratorOrdinal(stream, shard, input.ShardIteratorType, input.SequenceNumber);
    return {
      ShardIterator: context.iterators.encode({
        streamArn: stream.arn,
        shardId: shard.id,
        ordinal,
        issuedAt: context.now,
        chain: newChain(),
      }),
    };
  },
});
