import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { FileStore, listArchive, readArchive } from 'eddy';
import { startStack, type TestStack } from 'eddy/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import config from '../eddy.config.js';
import { castVote, totalKey } from '../src/votes.js';

/**
 * The votes example, end to end with the test kit: the tally handler runs from the Votes stream
 * on a virtual clock, in process; its AWS SDK client reaches the stack over loopback.
 */
let stack: TestStack;
let archiveDirectory: string;

beforeEach(async () => {
  archiveDirectory = mkdtempSync(join(tmpdir(), 'eddy-votes-archive-'));
  stack = await startStack(
    { ...config, archive: { tables: ['Sessions'], sink: { type: 'files', directory: archiveDirectory } } },
    { baseDirectory: join(import.meta.dirname, '..'), endpoint: true },
  );
});

afterEach(async () => {
  await stack.close();
  rmSync(archiveDirectory, { recursive: true, force: true });
});

const total = async (contestant: string) =>
  (await stack.documentClient.send(new GetCommand({ TableName: 'Votes', Key: { pk: totalKey(contestant) } })))
    .Item?.total;

async function vote(counts: Record<string, number>) {
  for (const [contestant, count] of Object.entries(counts)) {
    for (let i = 0; i < count; i++) await castVote(stack.documentClient, contestant);
  }
}

describe('vote totals', () => {
  it('adds up every shard once the stream has been processed', async () => {
    await vote({ alice: 120, bob: 75, carol: 3 });
    await stack.advance('2s'); // the 1 s batching window closes
    expect(await total('alice')).toBe(120);
    expect(await total('bob')).toBe(75);
    expect(await total('carol')).toBe(3);
    // The function's own TOTAL writes are filtered out: it never sees them.
    for (const invocation of stack.invocations('tally')) {
      const keys = (
        invocation.event as { Records: { dynamodb: { Keys: { pk: { S: string } } } }[] }
      ).Records.map((record) => record.dynamodb.Keys.pk.S);
      expect(keys.every((key) => key.startsWith('VOTES#'))).toBe(true);
    }
  });

  it('stays right when the stream delivers a batch twice (at least once)', async () => {
    stack.duplicateNext('tally', 3);
    await vote({ alice: 40 });
    await stack.advance('2s');
    await vote({ alice: 10 });
    await stack.advance('2s');
    expect(await total('alice')).toBe(50);
  });

  it('retries a failing batch and catches up', async () => {
    stack.failNext('tally', 2, 'database blip');
    await vote({ bob: 30 });
    await stack.advance('1m'); // retries back off 1 s, then 2 s
    expect(await total('bob')).toBe(30);
    const failed = stack.invocations('tally').filter((invocation) => invocation.status === 'error');
    expect(failed).toHaveLength(2);
    expect(stack.destination('tally')).toEqual([]);
  });

  it('sends a batch that exhausts its retries to the on-failure destination', async () => {
    stack.failNext('tally', Number.POSITIVE_INFINITY, 'still down');
    await vote({ carol: 5 });
    await stack.advance('1m');
    // The votes landed on several stream shards: each shard's batch fails on its own.
    const failures = stack.destination('tally');
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect(failure.requestContext.condition).toBe('RetryAttemptsExhausted');
      expect(failure.requestContext.approximateInvokeCount).toBe(3); // MaximumRetryAttempts 2
    }
    expect(failures.reduce((sum, failure) => sum + failure.DDBStreamBatchInfo.batchSize, 0)).toBe(5);
    expect(await total('carol')).toBeUndefined();
  });
});

describe('session archival', () => {
  it('archives sessions that expire by TTL, and only those', async () => {
    const now = Math.floor(stack.clock.now() / 1000);
    for (const [sessionId, expiresAt] of [
      ['s1', now + 3600],
      ['s2', now + 7200],
      ['kept', now + 30 * 86400],
    ] as const) {
      await stack.documentClient.send(
        new PutCommand({ TableName: 'Sessions', Item: { sessionId, expiresAt } }),
      );
    }
    await stack.documentClient.send(
      new PutCommand({ TableName: 'Sessions', Item: { sessionId: 'deleted', expiresAt: now } }),
    );
    await stack.engine.execute('DeleteItem', { TableName: 'Sessions', Key: { sessionId: { S: 'deleted' } } });
    await stack.advance('3h');
    await stack.expireNow();
    await stack.advance('2m'); // the archiver's batching window (60 s) closes
    const store = new FileStore(archiveDirectory);
    const { objects } = await listArchive(store);
    const archived: string[] = [];
    for await (const { items } of readArchive(store, objects)) {
      archived.push(...items.map((item) => item.sessionId!.S!));
    }
    expect(archived.sort()).toEqual(['s1', 's2']);
  });
});
