import {
  DeleteTableCommand,
  DescribeTableCommand,
  PutItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CapacityServer,
  itemOfSize,
  rejection,
  startCapacityServer,
  tableWithIndex,
} from './capacityServer.js';

/**
 * UpdateTable capacity changes as DynamoDB applies them (docs/capacity.md §2.1, §2.3). Evidence:
 * - "The new settings do not take effect until the UpdateTable operation is complete" and the
 *   decrease rule (four a UTC day, then one an hour, 27 at most; table and GSI limits decoupled,
 *   a call refused whole)
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#decreasing-increasing-throughput);
 * - 2026 recordings (ack-api-quirks DDB-TABLE-184, -185, -326, verified 2026-10-09): UPDATING
 *   about 2 s per change; UpdateTable answers the old units and the old NumberOfDecreasesToday
 *   with the new LastDecreaseDateTime; the 5th decrease is LimitExceededException (HTTP 400) with
 *   the message below; a mixed RCU-down/WCU-up call gets the same error; exactly one more
 *   3600 s after the last accepted decrease; the counter goes back to 0 at 00:00 UTC while
 *   LastDecreaseDateTime stays.
 */
const TABLE = 'Meters';
const UPDATING_MS = 2000;

async function create(eddy: CapacityServer, read: number, write: number) {
  await eddy.once.send(
    tableWithIndex(TABLE, [read, write], {
      name: 'byG',
      attribute: 'g',
      capacity: [10, 10],
      projection: 'KEYS_ONLY',
    }),
  );
  await eddy.clock.advance(UPDATING_MS);
}

describe('an UpdateTable capacity change', () => {
  let eddy: CapacityServer;
  beforeEach(async () => {
    eddy = await startCapacityServer(
      { mode: 'enforce', burstSeconds: 0 },
      { transientStatusDelayMs: UPDATING_MS },
    );
  });
  afterEach(() => eddy.close());

  it('keeps the old rate while the table is UPDATING and serves the new one once it is ACTIVE', async () => {
    await create(eddy, 10, 1);
    let next = 0;
    const write = () =>
      eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: itemOfSize(`k${next++}`, 1024) }));
    const writesInASecond = async () => {
      await eddy.clock.advance('1s');
      let served = 0;
      while (served < 20) {
        const error = await write().then(
          () => undefined,
          (thrown: Error) => thrown,
        );
        if (error !== undefined) {
          expect(error.name).toBe('ProvisionedThroughputExceededException');
          break;
        }
        served++;
      }
      return served;
    };

    const updating = await eddy.once.send(
      new UpdateTableCommand({
        TableName: TABLE,
        ProvisionedThroughput: { ReadCapacityUnits: 10, WriteCapacityUnits: 5 },
      }),
    );
    expect(updating.TableDescription?.TableStatus).toBe('UPDATING');
    expect(updating.TableDescription?.ProvisionedThroughput?.WriteCapacityUnits).toBe(1);
    expect(await writesInASecond()).toBe(1);

    await eddy.clock.advance(UPDATING_MS);
    const described = await eddy.once.send(new DescribeTableCommand({ TableName: TABLE }));
    expect(described.Table?.TableStatus).toBe('ACTIVE');
    expect(await writesInASecond()).toBe(5);
  });
});

describe('provisioned-throughput decreases', () => {
  let eddy: CapacityServer;
  beforeEach(async () => {
    units = 10;
    eddy = await startCapacityServer({ mode: 'off' }, { transientStatusDelayMs: UPDATING_MS });
    // 2026-01-01T00:00:00Z, a Thursday: the table is ACTIVE at 00:00:02.
    await create(eddy, 10, 10);
  });
  afterEach(() => eddy.close());

  let units = 10;
  const decrease = () =>
    eddy.once.send(
      new UpdateTableCommand({
        TableName: TABLE,
        ProvisionedThroughput: { ReadCapacityUnits: 10, WriteCapacityUnits: --units },
      }),
    );
  const throughput = async () =>
    (await eddy.once.send(new DescribeTableCommand({ TableName: TABLE }))).Table!.ProvisionedThroughput!;
  const refusal = (count: number, last: string, next: string) =>
    'Subscriber limit exceeded: Provisioned throughput decreases are limited within a given UTC day. ' +
    'After the first 4 decreases, each subsequent decrease in the same UTC day can be performed at most once every 3600 seconds. ' +
    `Number of decreases today: ${count}. Last decrease at Thursday, January 1, 2026 at ${last} Coordinated Universal Time. ` +
    `Next decrease can be made at ${next} Coordinated Universal Time`;

  it('accepts four back to back, answering the old units and count with the new LastDecreaseDateTime', async () => {
    for (let count = 0; count < 4; count++) {
      const at = eddy.clock.now();
      const answer = await decrease();
      expect(answer.TableDescription?.TableStatus).toBe('UPDATING');
      expect(answer.TableDescription?.ProvisionedThroughput).toMatchObject({
        WriteCapacityUnits: units + 1,
        NumberOfDecreasesToday: count,
      });
      expect(answer.TableDescription?.ProvisionedThroughput?.LastDecreaseDateTime).toEqual(new Date(at));
      await eddy.clock.advance(UPDATING_MS);
      expect(await throughput()).toMatchObject({
        WriteCapacityUnits: units,
        NumberOfDecreasesToday: count + 1,
      });
    }
  });

  it('refuses the fifth with LimitExceededException naming the next allowed time, and changes nothing', async () => {
    for (let count = 0; count < 4; count++) {
      await decrease();
      await eddy.clock.advance(UPDATING_MS);
    }
    // The 4th completed at 00:00:10.
    const error = await rejection(decrease());
    expect(error.name).toBe('LimitExceededException');
    expect((error.$metadata as { httpStatusCode: number }).httpStatusCode).toBe(400);
    expect(error.message).toBe(refusal(4, '12:00:10 AM', 'Thursday, January 1, 2026 at 1:00:10 AM'));
    expect((await eddy.once.send(new DescribeTableCommand({ TableName: TABLE }))).Table?.TableStatus).toBe(
      'ACTIVE',
    );
    expect(await throughput()).toMatchObject({ WriteCapacityUnits: 6, NumberOfDecreasesToday: 4 });

    // Lowering one unit while raising the other is a decrease too; raising both is not.
    const mixed = new UpdateTableCommand({
      TableName: TABLE,
      ProvisionedThroughput: { ReadCapacityUnits: 9, WriteCapacityUnits: 20 },
    });
    expect((await rejection(eddy.once.send(mixed))).name).toBe('LimitExceededException');
    await eddy.once.send(
      new UpdateTableCommand({
        TableName: TABLE,
        ProvisionedThroughput: { ReadCapacityUnits: 11, WriteCapacityUnits: 7 },
      }),
    );
  });

  it('counts a GSI apart: the table out of decreases, its index still has four', async () => {
    for (let count = 0; count < 4; count++) {
      await decrease();
      await eddy.clock.advance(UPDATING_MS);
    }
    const lowerIndex = (write: number) =>
      new UpdateTableCommand({
        TableName: TABLE,
        GlobalSecondaryIndexUpdates: [
          {
            Update: {
              IndexName: 'byG',
              ProvisionedThroughput: { ReadCapacityUnits: 10, WriteCapacityUnits: write },
            },
          },
        ],
      });
    for (const write of [9, 8, 7, 6]) {
      await eddy.once.send(lowerIndex(write));
      await eddy.clock.advance(UPDATING_MS);
    }
    expect((await rejection(eddy.once.send(lowerIndex(5)))).name).toBe('LimitExceededException');
  });

  it('allows exactly one more 3600 s after the last accepted decrease, then waits another hour', async () => {
    for (let count = 0; count < 4; count++) {
      await decrease();
      await eddy.clock.advance(UPDATING_MS);
    }
    await eddy.clock.advance(3600_000 - 1000);
    expect((await rejection(decrease())).name).toBe('LimitExceededException');
    units++;
    await eddy.clock.advance(1000);
    await decrease();
    await eddy.clock.advance(UPDATING_MS);
    expect(await throughput()).toMatchObject({ WriteCapacityUnits: 5, NumberOfDecreasesToday: 5 });

    // Accepted at 01:00:10, applied at 01:00:12: the last decrease is when it was applied.
    const error = await rejection(decrease());
    expect(error.message).toBe(refusal(5, '1:00:12 AM', 'Thursday, January 1, 2026 at 2:00:12 AM'));
  });

  it('names midnight when it comes first, and starts a new count at 00:00 UTC keeping LastDecreaseDateTime', async () => {
    await eddy.clock.advance(23 * 3600_000 + 50 * 60_000);
    for (let count = 0; count < 4; count++) {
      await decrease();
      await eddy.clock.advance(UPDATING_MS);
    }
    // Last decrease at 23:50:10; an hour later is past midnight.
    const error = await rejection(decrease());
    expect(error.message).toBe(refusal(4, '11:50:10 PM', 'Friday, January 2, 2026 at 12:00:00 AM'));
    units++;

    await eddy.clock.advance(10 * 60_000);
    const reset = await throughput();
    expect(reset.NumberOfDecreasesToday).toBe(0);
    expect(reset.LastDecreaseDateTime).toEqual(new Date(Date.UTC(2026, 0, 1, 23, 50, 10)));
    for (let count = 0; count < 4; count++) {
      await decrease();
      await eddy.clock.advance(UPDATING_MS);
    }
    expect(await throughput()).toMatchObject({ NumberOfDecreasesToday: 4 });
  });

  it('counts a decrease on the UTC day it is applied, from the clock, whatever was described before', async () => {
    // Accepted at 23:59:52, :54, :56, :58; the last is applied at 00:00:00 on January 2.
    await eddy.clock.advance(23 * 3600_000 + 59 * 60_000 + 50_000);
    for (let count = 0; count < 4; count++) {
      await decrease();
      await eddy.clock.advance(UPDATING_MS);
    }
    expect(await throughput()).toMatchObject({ WriteCapacityUnits: 6, NumberOfDecreasesToday: 1 });
    // So three more are free today, then the spacing applies.
    for (let count = 0; count < 3; count++) {
      await decrease();
      await eddy.clock.advance(UPDATING_MS);
    }
    expect((await rejection(decrease())).name).toBe('LimitExceededException');
    units++;

    // Nothing read the table since; every description a day later shows today's count, 0,
    // DeleteTable's included (no DescribeTable call is needed to roll it over).
    await eddy.clock.advance(24 * 3600_000);
    const deleted = await eddy.once.send(new DeleteTableCommand({ TableName: TABLE }));
    expect(deleted.TableDescription?.ProvisionedThroughput).toMatchObject({
      WriteCapacityUnits: 3,
      NumberOfDecreasesToday: 0,
    });
  });
});
