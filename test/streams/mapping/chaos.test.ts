import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ordinalOf } from '../../../streams/sequenceNumber.js';
import { seededRandom as random } from '../../helpers/random.js';
import { mappingFixture } from './helpers.js';

/**
 * Bounded chaos: 50,000 writes across 500 keys through a mapping whose handler throws on 10 % of
 * invocations and reports a partial failure on another 10 %. Every record is handled or, after
 * its retries, in the destination; handled records come in per-key order; the counts add up.
 */

const WRITES = 50_000;
const KEYS = 500;
const DLQ = 'arn:aws:sqs:us-east-1:000000000000:chaos-dlq';

describe('chaos', () => {
  it('handles 50,000 writes over 500 keys at least once, in per-key order, losing nothing', async () => {
    const f = mappingFixture({
      changeLog: { shardCount: 4 },
      manager: { retryBackoff: { initialMs: 200, maxMs: 2_000 } },
    });
    const next = random(20260107);
    const handled = new Set<string>();
    const lastByKey = new Int32Array(KEYS).fill(-1);
    let orderViolations = 0;
    let duplicates = 0;
    const outcomes = { thrown: 0, partial: 0, ok: 0 };

    const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
      const roll = next();
      if (roll < 0.1) {
        outcomes.thrown++;
        throw new Error('chaos');
      }
      const records = event.Records;
      // A partial failure at a random record: the ones before it are handled, it is reported.
      const failAt = roll < 0.2 ? Math.floor(next() * records.length) : records.length;
      if (failAt < records.length) outcomes.partial++;
      else outcomes.ok++;
      for (const record of records.slice(0, failAt)) {
        const sequenceNumber = record.dynamodb!.SequenceNumber!;
        if (handled.has(sequenceNumber)) duplicates++;
        handled.add(sequenceNumber);
        const key = Number(record.dynamodb!.Keys!.pk!.S!.slice(1));
        const value = Number(record.dynamodb!.NewImage!.v!.N);
        if (value <= lastByKey[key]!) orderViolations++;
        lastByKey[key] = value;
      }
      return {
        batchItemFailures:
          failAt < records.length ? [{ itemIdentifier: records[failAt]!.dynamodb!.SequenceNumber! }] : [],
      };
    };
    const uuid = f.map(
      { name: 'chaos', handler, logLimit: 0 },
      {
        BatchSize: 100,
        ParallelizationFactor: 2,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 2,
        DestinationConfig: { OnFailure: { Destination: DLQ } },
      },
    );

    const versions = new Int32Array(KEYS);
    for (let i = 0; i < WRITES; i++) {
      const key = Math.floor(next() * KEYS);
      f.put(`k${key}`, { v: { N: String(versions[key]!++) } });
      if (i % 1000 === 999) await f.clock.advance('100ms');
    }
    await f.run('1s');

    const failures = f.destinations.queue(DLQ).records();
    const discarded = failures.reduce((sum, record) => sum + record.DDBStreamBatchInfo.batchSize, 0);
    const state = f.manager.inspect(uuid);
    expect(outcomes.thrown).toBeGreaterThan(0);
    expect(outcomes.partial).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(0);
    expect(orderViolations).toBe(0);
    expect(duplicates).toBe(0);
    expect(handled.size + discarded).toBe(WRITES);
    expect(state).toMatchObject({
      recordsRead: WRITES,
      recordsProcessed: handled.size,
      recordsFailed: discarded,
      destinationCount: failures.length,
      backlog: 0,
      inProgress: 0,
    });
    // Every record not handled lies in the range of a failure record of its shard.
    const stream = f.changeLog.stream(f.streamArn)!;
    const ranges = failures.map((record) => ({
      shard: record.DDBStreamBatchInfo.shardId,
      from: ordinalOf(record.DDBStreamBatchInfo.startSequenceNumber),
      to: ordinalOf(record.DDBStreamBatchInfo.endSequenceNumber),
    }));
    for (const shard of stream.shards) {
      for (let index = 0; index < shard.size; index++) {
        const ordinal = shard.positionAt(index) + 1;
        if (handled.has(`1${String(ordinal).padStart(20, '0')}`)) continue;
        expect(
          ranges.some((range) => range.shard === shard.id && range.from <= ordinal && ordinal <= range.to),
        ).toBe(true);
      }
    }
  });
});
