export { describeStream } from './describeStream.js';
export { getRecords, MAX_RESPONSE_BYTES } from './getRecords.js';
export { getShardIterator } from './getShardIterator.js';
export { listStreams } from './listStreams.js';
export type { StreamsContext, StreamsOperation } from './operation.js';
export { parseStreamArn, StreamsMessages } from './shapes.js';
export { type IteratorState, iteratorCodecOf, useIteratorSecret } from './shardIterator.js';
export { STREAMS_TARGET_PREFIX, StreamsService, type StreamsServiceOptions } from './streamsService.js';
