export { failureObjectKey, LocalBucket, type S3FailureDocument } from './localBucket.js';
export { LocalDestinations } from './localDestinations.js';
export { LocalQueue, type QueueMessage } from './localQueue.js';
