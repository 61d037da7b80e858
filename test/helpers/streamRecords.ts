import type { StreamsService } from '../../streams/streamsApi/streamsService.js';

/**
 * Every record of a stream through the Streams API: all shards, as DescribeStream lists them
 * (parents first), each read from TRIM_HORIZON to its end.
 */
export function readStreamRecords(streams: StreamsService, streamArn: string): Record<string, unknown>[] {
  const description = streams.execute('DescribeStream', { StreamArn: streamArn }).StreamDescription as {
    Shards: { ShardId: string }[];
  };
  const records: Record<string, unknown>[] = [];
  for (const shard of description.Shards) {
    let iterator: string | undefined = streams.execute('GetShardIterator', {
      StreamArn: streamArn,
      ShardId: shard.ShardId,
      ShardIteratorType: 'TRIM_HORIZON',
    }).ShardIterator as string;
    // The page bound only stops a runaway loop; no test stream comes near it.
    for (let page = 0; iterator !== undefined && page < 10_000; page++) {
      const output = streams.execute('GetRecords', { ShardIterator: iterator });
      const got = output.Records as Record<string, unknown>[];
      records.push(...got);
      iterator = output.NextShardIterator as string | undefined;
      if (got.length === 0) break;
    }
  }
  return records;
}
