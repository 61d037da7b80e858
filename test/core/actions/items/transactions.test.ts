import { beforeEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../../core/changeEvent.js';
import { VirtualClock } from '../../../../core/clock.js';
import { Engine } from '../../../../core/engine.js';
import { validation, wireError } from '../../../helpers/errors.js';
import { addTable } from '../../../helpers/tables.js';

let engine: Engine;
let clock: VirtualClock;
beforeEach(() => {
  clock = new VirtualClock();
  engine = new Engine({ clock });
  addTable(engine, 'Orders', ['id', 'S']);
  addTable(engine, 'Stock', ['sku', 'S']);
});

const putOrder = (id: string) => ({
  Put: { TableName: 'Orders', Item: { id: { S: id }, status: { S: 'new' } } },
});

describe('TransactWriteItems', () => {
  it('commits actions over several tables together, events in action order with one commit id', () => {
    const events: ChangeEvent[] = [];
    engine.onCommit((event) => events.push(event));
    engine.execute('TransactWriteItems', {
      TransactItems: [
        putOrder('o1'),
        { Put: { TableName: 'Stock', Item: { sku: { S: 'apple' }, n: { N: '3' } } } },
        putOrder('o2'),
      ],
    });
    const keyText = (event: ChangeEvent) => JSON.stringify(Object.values(event.keys)[0]);
    expect(events.map((event) => `${event.table.tableName}:${keyText(event)}`)).toEqual([
      'Orders:{"S":"o1"}',
      'Stock:{"S":"apple"}',
      'Orders:{"S":"o2"}',
    ]);
    expect(new Set(events.map((event) => event.commitId)).size).toBe(1);
  });

  it('fails on its last action leaving no trace and no change event', () => {
    engine.execute('PutItem', { TableName: 'Orders', Item: { id: { S: 'existing' }, status: { S: 'old' } } });
    const events: ChangeEvent[] = [];
    engine.onCommit((event) => events.push(event));
    const error = wireError(() =>
      engine.execute('TransactWriteItems', {
        TransactItems: [
          putOrder('o1'),
          { Delete: { TableName: 'Orders', Key: { id: { S: 'existing' } } } },
          // A key of the wrong type: a per-action ValidationError cancels the transaction.
          { Put: { TableName: 'Stock', Item: { sku: { N: '1' } } } },
        ],
      }),
    );
    expect(error).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      Message:
        'Transaction cancelled, please refer cancellation reasons for specific reasons [None, None, ValidationError]',
      CancellationReasons: [
        { Code: 'None' },
        { Code: 'None' },
        {
          Code: 'ValidationError',
          Message:
            'One or more parameter values were invalid: Type mismatch for key sku expected: S actual: N',
        },
      ],
    });
    expect(events).toEqual([]);
    expect(engine.execute('GetItem', { TableName: 'Orders', Key: { id: { S: 'o1' } } })).toEqual({});
    expect(engine.execute('GetItem', { TableName: 'Orders', Key: { id: { S: 'existing' } } })).toHaveProperty(
      'Item',
    );
  });

  it('rejects two actions on one item (docs/dynamodb.md §7.3.2)', () => {
    expect(
      wireError(() =>
        engine.execute('TransactWriteItems', {
          TransactItems: [putOrder('o1'), { Delete: { TableName: 'Orders', Key: { id: { S: 'o1' } } } }],
        }),
      ),
    ).toEqual(validation('Transaction request cannot include multiple operations on one item'));
  });

  it('accepts 100 actions and rejects 101 and 0 (docs/dynamodb.md §7.3.1)', () => {
    const actions = (n: number) => Array.from({ length: n }, (_, i) => putOrder(`bulk${i}`));
    expect(engine.execute('TransactWriteItems', { TransactItems: actions(100) })).toEqual({});
    for (const n of [0, 101]) {
      const error = wireError(() => engine.execute('TransactWriteItems', { TransactItems: actions(n) }));
      // The newer framework names the member (eu-west-2 and others, October 2026).
      expect(String(error.message)).toContain("Value at 'TransactItems' failed to satisfy constraint");
    }
  });

  it('is idempotent with a ClientRequestToken for 10 minutes, then treats it as new (docs/dynamodb.md §7.3.4)', () => {
    const events: ChangeEvent[] = [];
    engine.onCommit((event) => events.push(event));
    const request = { ClientRequestToken: 'token-1', TransactItems: [putOrder('o1')] };
    engine.execute('TransactWriteItems', request);
    engine.execute('DeleteItem', { TableName: 'Orders', Key: { id: { S: 'o1' } } });
    engine.execute('TransactWriteItems', request); // a repeat: no effect
    expect(engine.execute('GetItem', { TableName: 'Orders', Key: { id: { S: 'o1' } } })).toEqual({});
    expect(events.map((event) => event.eventName)).toEqual(['INSERT', 'REMOVE']);
    const mismatch = wireError(() =>
      engine.execute('TransactWriteItems', {
        ClientRequestToken: 'token-1',
        TransactItems: [putOrder('o2')],
      }),
    );
    expect(mismatch.__type).toBe('com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException');
  });

  it('forgets a token after 10 minutes', async () => {
    const request = { ClientRequestToken: 'token-2', TransactItems: [putOrder('o1')] };
    engine.execute('TransactWriteItems', request);
    engine.execute('DeleteItem', { TableName: 'Orders', Key: { id: { S: 'o1' } } });
    await clock.advance('11m');
    engine.execute('TransactWriteItems', request);
    expect(engine.execute('GetItem', { TableName: 'Orders', Key: { id: { S: 'o1' } } })).toHaveProperty(
      'Item',
    );
  });

  it('rejects a 37-character token', () => {
    const error = wireError(() =>
      engine.execute('TransactWriteItems', {
        ClientRequestToken: 'x'.repeat(37),
        TransactItems: [putOrder('o1')],
      }),
    );
    expect(String(error.message)).toContain("at 'clientRequestToken' failed to satisfy constraint");
  });

  it('charges double write units (docs/dynamodb.md §4.3.3)', () => {
    const result = engine.execute('TransactWriteItems', {
      TransactItems: [putOrder('o1')],
      ReturnConsumedCapacity: 'TOTAL',
    });
    expect(result.ConsumedCapacity).toEqual([{ TableName: 'Orders', CapacityUnits: 2 }]);
  });
});

describe('TransactGetItems', () => {
  it('answers entries aligned with the request, without Item for a missing item (docs/dynamodb.md §7.3.7)', () => {
    engine.execute('PutItem', { TableName: 'Orders', Item: { id: { S: 'o1' } } });
    const result = engine.execute('TransactGetItems', {
      TransactItems: [
        { Get: { TableName: 'Orders', Key: { id: { S: 'missing' } } } },
        { Get: { TableName: 'Orders', Key: { id: { S: 'o1' } } } },
      ],
      ReturnConsumedCapacity: 'TOTAL',
    });
    expect(result).toEqual({
      Responses: [{}, { Item: { id: { S: 'o1' } } }],
      ConsumedCapacity: [{ TableName: 'Orders', CapacityUnits: 4 }],
    });
  });
});
