export { ChangeLog, type ChangeLogOptions } from './changeLog.js';
export type { ChangeSource } from './changeSource.js';
export { type ChangesOptions, changes$ } from './changes.js';
export { clockScheduler } from './clockScheduler.js';
export { StreamUnavailableError, ViewTypeError } from './errors.js';
export { type FeedRecord, InternalFeed, InternalReader } from './internalFeed.js';
export * from './operators/index.js';
export {
  childrenOf,
  iteratorOrdinal,
  readShard,
  rootShards,
  type ShardIteratorType,
  type ShardRead,
  type StreamPosition,
  shardsInReadOrder,
  startPosition,
} from './reader.js';
export {
  compareSequenceNumbers,
  formatSequenceNumber,
  isSequenceNumber,
  ordinalOf,
} from './sequenceNumber.js';
export { Shard } from './shard.js';
export { Stream, type StreamStatus } from './stream.js';
export * from './streamsApi/index.js';
export { type RecordSource, sizeBytesOf, toDynamoDBRecord, toWireRecord } from './streamView.js';
