import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { S3Store } from '../../infra/archive/s3Store.js';
import type { EddyConfig } from '../../infra/config.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { archivedItems, type LoopbackS3, removeTempDirs, startLoopbackS3 } from './helpers.js';

/**
 * The S3 archive as the README configures it, in a stack that serves on a port (as `eddy serve`
 * does): the environment then holds the placeholder keys eddy sets for handlers, which the
 * archive's bucket must never be signed with.
 */

const S3RVER = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const START = Date.UTC(2026, 0, 1, 12, 0, 0);

let s3: LoopbackS3;
beforeAll(async () => {
  s3 = await startLoopbackS3('stack-archive');
});
afterAll(async () => {
  await s3.stop();
  removeTempDirs();
});

let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  delete process.env.EDDY_ARCHIVE_ACCESS_KEY_ID;
  delete process.env.EDDY_ARCHIVE_SECRET_ACCESS_KEY;
});

function sessionsConfig(prefix: string, credentials?: typeof S3RVER): EddyConfig {
  return {
    tables: [
      {
        TableName: 'Sessions',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      },
    ],
    archive: {
      tables: ['Sessions'],
      sink: {
        type: 's3',
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        prefix,
        ...(credentials === undefined ? {} : { credentials }),
      },
    },
  };
}

/** Writes sessions that expired a minute ago, runs the ttl-expirer and lets the batching window close. */
async function expireSessions(test: TestStack, count: number): Promise<void> {
  for (let i = 1; i <= count; i++)
    test.engine.execute('PutItem', {
      TableName: 'Sessions',
      Item: { pk: { S: `s-${i}` }, expiresAt: { N: String(START / 1000 - 60) } },
    });
  await test.expireNow();
  await test.advance('61s');
}

const bucket = () => new S3Store({ bucket: s3.bucket, endpoint: s3.endpoint, credentials: S3RVER });

describe('the S3 archive in a served stack', () => {
  it('signs with the credentials of the config, not the placeholder keys eddy sets for handlers', async () => {
    stack = await startStack(sessionsConfig('configured', S3RVER), { endpoint: true, startAt: START });
    expect(process.env.AWS_ACCESS_KEY_ID).toBeDefined();
    await expireSessions(stack, 2);
    expect((await archivedItems(bucket(), 'configured')).map((item) => item.pk!.S)).toEqual(['s-1', 's-2']);
  });

  it('takes EDDY_ARCHIVE_ACCESS_KEY_ID and EDDY_ARCHIVE_SECRET_ACCESS_KEY when the config gives none', async () => {
    process.env.EDDY_ARCHIVE_ACCESS_KEY_ID = 'S3RVER';
    process.env.EDDY_ARCHIVE_SECRET_ACCESS_KEY = 'S3RVER';
    stack = await startStack(sessionsConfig('environment'), { endpoint: true, startAt: START });
    await expireSessions(stack, 1);
    expect((await archivedItems(bucket(), 'environment')).map((item) => item.pk!.S)).toEqual(['s-1']);
  });

  it('without credentials, logs one line per failed attempt saying what to set, and retries with backoff', async () => {
    stack = await startStack(sessionsConfig('none'), { endpoint: true, startAt: START });
    // One item: one shard, one batch.
    await expireSessions(stack, 1);
    await stack.advance('10s');
    const attempts = stack.invocations('archiver');
    // 0 s, then retries after 1 s, 2 s, 4 s...: three attempts within 61 s + 10 s of a 1 s backoff doubling.
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    const startedAt = attempts.map((attempt) => attempt.startedAt);
    const gaps = startedAt.slice(1).map((at, index) => at - startedAt[index]!);
    expect(gaps.slice(0, 3)).toEqual([1000, 2000, 4000]);
    for (const attempt of attempts) {
      const errors = attempt.logs.filter((line) => line.includes('\tERROR\t'));
      expect(errors).toEqual([
        expect.stringMatching(
          /\tERROR\tarchiver: could not archive a batch of 1 record \(reported failed, for the mapping to retry\): could not list none\/Sessions\/.* in s3:\/\/stack-archive: no credentials for the archive's bucket \(eddy's placeholder keys for handlers are not used\): set archive\.sink\.credentials, or EDDY_ARCHIVE_ACCESS_KEY_ID and EDDY_ARCHIVE_SECRET_ACCESS_KEY$/,
        ),
      ]);
      expect(errors[0]).not.toContain('\n');
    }
    expect(await archivedItems(bucket(), 'none')).toEqual([]);
  });
});
