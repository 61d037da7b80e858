import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHost, recordingLogger, START, s, tempDir } from './helpers.js';

/**
 * Issue #16, item 3: shard iterators handed out before a restart with a data directory stay
 * valid (the secret they are signed with is kept in `iterator.key`), and still expire 15 minutes
 * after they were handed out (docs/streams-and-lambda.md §1.5.3).
 */
let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const MINUTE = 60_000;

describe('shard iterators across a restart', () => {
  it('keeps an iterator handed out before the restart valid until its 15 minutes are up', async () => {
    const first = await openHost(dir.path);
    first.engine.execute('CreateTable', {
      TableName: 'Orders',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    });
    first.engine.execute('PutItem', { TableName: 'Orders', Item: { pk: s('a') } });
    const { Streams } = first.streams.execute('ListStreams', {}) as { Streams: { StreamArn: string }[] };
    const streamArn = Streams[0]!.StreamArn;
    const description = first.streams.execute('DescribeStream', { StreamArn: streamArn }) as {
      StreamDescription: { Shards: { ShardId: string }[] };
    };
    // The table's stream has several shards: an iterator on each, the put is on one of them.
    const iterators = description.StreamDescription.Shards.map(
      ({ ShardId }) =>
        (
          first.streams.execute('GetShardIterator', {
            StreamArn: streamArn,
            ShardId,
            ShardIteratorType: 'TRIM_HORIZON',
          }) as { ShardIterator: string }
        ).ShardIterator,
    );
    await first.persistence.close();

    const second = await openHost(dir.path, { start: START + 10 * MINUTE });
    const read = (ShardIterator: string) =>
      (
        second.streams.execute('GetRecords', { ShardIterator }) as {
          Records: { dynamodb: { Keys: unknown } }[];
        }
      ).Records;
    expect(iterators.flatMap(read).map((record) => record.dynamodb.Keys)).toEqual([{ pk: s('a') }]);

    second.clock.set(START + 15 * MINUTE + 1);
    expect(() => read(iterators[0]!)).toThrow(
      expect.objectContaining({
        name: 'ExpiredIteratorException',
        message: 'The provided iterator exceeds the maximum age allowed.',
      }),
    );
    await second.persistence.close();
  });

  it('keeps the secret readable by its owner only, and replaces a damaged one', async () => {
    const host = await openHost(dir.path);
    await host.persistence.close();
    const keyFile = join(dir.path, 'iterator.key');
    expect(readFileSync(keyFile)).toHaveLength(32);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    writeFileSync(keyFile, 'short');
    const logger = recordingLogger();
    const again = await openHost(dir.path, { logger });
    expect(readFileSync(keyFile)).toHaveLength(32);
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([
      expect.objectContaining({ fields: { file: keyFile, bytes: 5 } }),
    ]);
    await again.persistence.close();
  });
});
