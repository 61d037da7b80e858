/**
 * eddy's partitioning of a key space (docs/capacity.md §3): the partition key's encoded value is
 * hashed to 32 bits (FNV-1a over its UTF-16 code units) and the hash space is cut into `count`
 * equal ranges, partition 0 holding the lowest hashes. DynamoDB also places items by a hash of
 * the partition key and splits partitions in key ranges
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.Partitions.html);
 * its hash function is not published, so which keys share a partition differs from AWS.
 */
export function partitionHash(hashKey: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < hashKey.length; index++) {
    hash ^= hashKey.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Which of `count` partitions holds an encoded partition key value. */
export function partitionOf(hashKey: string, count: number): number {
  return Math.floor((partitionHash(hashKey) / 0x1_0000_0000) * count);
}
