import { describe, expect, it } from 'vitest';
import type { InvocationResult, MappedFunction } from '../../../streams/mapping/invoke.js';
import { MappingManager } from '../../../streams/mapping/manager.js';
import type { PendingRecord } from '../../../streams/mapping/records.js';
import { formatSequenceNumber } from '../../../streams/sequenceNumber.js';
import { createTable, fixture } from '../helpers.js';

/** A function that records each event it is invoked with and answers `respond(event)`. */
function recordingFunction(respond: (event: unknown) => unknown = () => ({ batchItemFailures: [] })) {
  const events: unknown[] = [];
  const fn: MappedFunction = {
    functionName: 'internal',
    functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:internal',
    async invoke(event: unknown): Promise<InvocationResult> {
      events.push(event);
      return { requestId: String(events.length), status: 'ok', payload: respond(event) };
    },
  };
  return { events, fn };
}

describe('internal mappings', () => {
  it('invoke with the event eventOf builds from the batch, instead of Lambda records', async () => {
    const { engine, changeLog } = fixture();
    createTable(engine, 'Items', undefined);
    const manager = new MappingManager({
      changeLog,
      functions: { resolve: () => undefined },
      settler: engine,
    });
    const { events, fn } = recordingFunction();
    manager.createInternal({
      tableName: 'Items',
      fn,
      settings: { BatchSize: 10 },
      eventOf: (records: readonly PendingRecord[]) => ({
        Changes: records.map((record) => ({ pk: record.event.keys.pk, ordinal: record.ordinal })),
      }),
    });
    for (const pk of ['a', 'b', 'c'])
      engine.execute('PutItem', { TableName: 'Items', Item: { pk: { S: pk } } });
    await engine.settled();
    expect(events).toEqual([
      {
        Changes: [
          { pk: { S: 'a' }, ordinal: 1 },
          { pk: { S: 'b' }, ordinal: 2 },
          { pk: { S: 'c' }, ordinal: 3 },
        ],
      },
    ]);
    manager.close();
  });

  it('retry from the first change a custom event reports failed (ReportBatchItemFailures)', async () => {
    const { clock, engine, changeLog } = fixture();
    createTable(engine, 'Items', undefined);
    const manager = new MappingManager({
      changeLog,
      functions: { resolve: () => undefined },
      settler: engine,
    });
    let failOnce = true;
    const { events, fn } = recordingFunction((event) => {
      const ordinals = (event as { Changes: { ordinal: number }[] }).Changes.map((change) => change.ordinal);
      if (failOnce && ordinals.includes(2)) {
        failOnce = false;
        return { batchItemFailures: [{ itemIdentifier: formatSequenceNumber(2) }] };
      }
      return { batchItemFailures: [] };
    });
    manager.createInternal({
      tableName: 'Items',
      fn,
      settings: { BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] },
      eventOf: (records: readonly PendingRecord[]) => ({
        Changes: records.map((record) => ({ ordinal: record.ordinal })),
      }),
    });
    for (const pk of ['a', 'b', 'c'])
      engine.execute('PutItem', { TableName: 'Items', Item: { pk: { S: pk } } });
    await engine.settled();
    await clock.advance('2s'); // the retry waits out its backoff on the engine clock
    await engine.settled();
    expect(
      events.map((event) => (event as { Changes: { ordinal: number }[] }).Changes.map((c) => c.ordinal)),
    ).toEqual([
      [1, 2, 3],
      [2, 3],
    ]);
    manager.close();
  });
});
