import { beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../../core/engine.js';
import { validation, wireError } from '../../../helpers/errors.js';
import { addTable } from '../../../helpers/tables.js';

/**
 * The developer guide's "Working with items": conditional writes, atomic counters, optimistic
 * locking. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithItems.html
 */
let engine: Engine;
beforeEach(() => {
  engine = new Engine();
  addTable(engine, 'ProductCatalog', ['Id', 'N']);
  engine.execute('PutItem', {
    TableName: 'ProductCatalog',
    Item: { Id: { N: '1' }, Price: { N: '10' }, Version: { N: '1' }, Title: { S: 'Book 101 Title' } },
  });
});

const Key = { Id: { N: '1' } };
const conditionFailed = {
  __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
  message: 'The conditional request failed',
};
const get = () =>
  (
    engine.execute('GetItem', { TableName: 'ProductCatalog', Key }) as {
      Item: Record<string, { N?: string }>;
    }
  ).Item;

describe('conditional writes', () => {
  it('lets the first of two clients win: the second sees the price changed (guide example: $10 → $8, then $12 fails)', () => {
    const setPrice = (price: string) =>
      engine.execute('UpdateItem', {
        TableName: 'ProductCatalog',
        Key,
        UpdateExpression: 'SET Price = :new',
        ConditionExpression: 'Price = :expected',
        ExpressionAttributeValues: { ':new': { N: price }, ':expected': { N: '10' } },
      });
    setPrice('8');
    expect(wireError(() => setPrice('12'))).toEqual(conditionFailed);
    expect(get().Price).toEqual({ N: '8' });
  });

  it('puts only when the item does not exist (attribute_not_exists on the key)', () => {
    const put = () =>
      engine.execute('PutItem', {
        TableName: 'ProductCatalog',
        Item: { Id: { N: '1' }, Title: { S: 'replacement' } },
        ConditionExpression: 'attribute_not_exists(Id)',
      });
    expect(wireError(put)).toEqual(conditionFailed);
    expect(get().Title).toEqual({ S: 'Book 101 Title' });
  });

  it('returns the item with ReturnValuesOnConditionCheckFailure ALL_OLD, lowercase message (docs/dynamodb.md §4.2.5, §9.3)', () => {
    const error = wireError(() =>
      engine.execute('DeleteItem', {
        TableName: 'ProductCatalog',
        Key,
        ConditionExpression: 'Price > :p',
        ExpressionAttributeValues: { ':p': { N: '100' } },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    expect(error).toEqual({ ...conditionFailed, Item: get() });
  });

  it('accepts the legacy Expected form and refuses mixing it with expressions (docs/dynamodb.md §5.4.2)', () => {
    expect(
      wireError(() =>
        engine.execute('PutItem', {
          TableName: 'ProductCatalog',
          Item: { Id: { N: '1' } },
          Expected: { Price: { Value: { N: '999' } } },
        }),
      ),
    ).toEqual(conditionFailed);
    expect(
      wireError(() =>
        engine.execute('PutItem', {
          TableName: 'ProductCatalog',
          Item: { Id: { N: '1' } },
          Expected: { Price: { Value: { N: '10' } } },
          ConditionExpression: 'attribute_exists(Id)',
        }),
      ),
    ).toEqual(
      validation(
        '1 validation error detected: Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}',
      ),
    );
  });
});

describe('atomic counters and optimistic locking', () => {
  it('increments and decrements a counter on every call (not idempotent, as the guide warns)', () => {
    const add = (delta: string) =>
      engine.execute('UpdateItem', {
        TableName: 'ProductCatalog',
        Key,
        UpdateExpression: 'SET Price = Price + :d',
        ExpressionAttributeValues: { ':d': { N: delta } },
        ReturnValues: 'UPDATED_NEW',
      });
    expect(add('5')).toEqual({ Attributes: { Price: { N: '15' } } });
    expect(add('5')).toEqual({ Attributes: { Price: { N: '20' } } });
    expect(add('-0.5')).toEqual({ Attributes: { Price: { N: '19.5' } } });
  });

  it('ADD starts a missing counter at 0 and creates the item (upsert)', () => {
    const result = engine.execute('UpdateItem', {
      TableName: 'ProductCatalog',
      Key: { Id: { N: '2' } },
      UpdateExpression: 'ADD Hits :one',
      ExpressionAttributeValues: { ':one': { N: '1' } },
      ReturnValues: 'ALL_NEW',
    });
    expect(result).toEqual({ Attributes: { Id: { N: '2' }, Hits: { N: '1' } } });
  });

  it('guards a write with a version attribute: a stale version fails, the fresh one succeeds', () => {
    const write = (expected: string) =>
      engine.execute('UpdateItem', {
        TableName: 'ProductCatalog',
        Key,
        UpdateExpression: 'SET Price = :p, Version = Version + :one',
        ConditionExpression: 'Version = :expected',
        ExpressionAttributeValues: { ':p': { N: '11' }, ':one': { N: '1' }, ':expected': { N: expected } },
      });
    write('1');
    expect(wireError(() => write('1'))).toEqual(conditionFailed);
    expect(get().Version).toEqual({ N: '2' });
  });
});

describe('UpdateItem', () => {
  it('answers each ReturnValues option (docs/dynamodb.md §4.2.4)', () => {
    const update = (ReturnValues: string) =>
      engine.execute('UpdateItem', {
        TableName: 'ProductCatalog',
        Key,
        UpdateExpression: 'SET Price = :p REMOVE Title',
        ExpressionAttributeValues: { ':p': { N: '9' } },
        ReturnValues,
      });
    expect(update('UPDATED_OLD')).toEqual({
      Attributes: { Price: { N: '10' }, Title: { S: 'Book 101 Title' } },
    });
    expect(update('ALL_OLD')).toEqual({
      Attributes: { Id: { N: '1' }, Price: { N: '9' }, Version: { N: '1' } },
    });
    expect(update('UPDATED_NEW')).toEqual({ Attributes: { Price: { N: '9' } } });
    expect(update('ALL_NEW')).toEqual({
      Attributes: { Id: { N: '1' }, Price: { N: '9' }, Version: { N: '1' } },
    });
    expect(update('NONE')).toEqual({});
  });

  it('refuses to update a key attribute (docs/dynamodb.md §4.2.3)', () => {
    expect(
      wireError(() =>
        engine.execute('UpdateItem', {
          TableName: 'ProductCatalog',
          Key,
          UpdateExpression: 'SET Id = :v',
          ExpressionAttributeValues: { ':v': { N: '2' } },
        }),
      ),
    ).toEqual(
      validation(
        'One or more parameter values were invalid: Cannot update attribute Id. This attribute is part of the key',
      ),
    );
  });

  it('creates nothing for REMOVE on a missing item, but a key-only item without any update (docs/dynamodb.md §4.2.2)', () => {
    const update = (id: string, rest: Record<string, unknown>) =>
      engine.execute('UpdateItem', { TableName: 'ProductCatalog', Key: { Id: { N: id } }, ...rest });
    update('3', { UpdateExpression: 'REMOVE Price' });
    update('4', {});
    update('5', { AttributeUpdates: {} });
    update('6', { AttributeUpdates: { Price: { Action: 'DELETE' } } });
    const item = (id: string) =>
      engine.execute('GetItem', { TableName: 'ProductCatalog', Key: { Id: { N: id } } });
    expect(item('3')).toEqual({});
    expect(item('4')).toEqual({ Item: { Id: { N: '4' } } });
    expect(item('5')).toEqual({ Item: { Id: { N: '5' } } });
    expect(item('6')).toEqual({});
  });

  it('refuses an update that grows the item past 400 KB, leaving it unchanged', () => {
    const error = wireError(() =>
      engine.execute('UpdateItem', {
        TableName: 'ProductCatalog',
        Key,
        UpdateExpression: 'SET Payload = :b',
        ExpressionAttributeValues: { ':b': { S: 'x'.repeat(409_600) } },
      }),
    );
    expect(error).toEqual(validation('Item size to update has exceeded the maximum allowed size'));
    expect(get()).not.toHaveProperty('Payload');
  });

  it('fails a runtime error before writing anything (docs/dynamodb.md §5.3.4)', () => {
    const error = wireError(() =>
      engine.execute('UpdateItem', {
        TableName: 'ProductCatalog',
        Key,
        UpdateExpression: 'SET Price = :p, Amount = Absent + :p',
        ExpressionAttributeValues: { ':p': { N: '1' } },
      }),
    );
    expect(error).toEqual(
      validation('The provided expression refers to an attribute that does not exist in the item'),
    );
    expect(get().Price).toEqual({ N: '10' });
  });
});

describe('TransactWriteItems conditions', () => {
  it('reports every failed condition in order, returning the item where asked, and writes nothing', () => {
    engine.execute('PutItem', { TableName: 'ProductCatalog', Item: { Id: { N: '2' }, Stock: { N: '0' } } });
    const error = wireError(() =>
      engine.execute('TransactWriteItems', {
        TransactItems: [
          {
            Update: {
              TableName: 'ProductCatalog',
              Key,
              UpdateExpression: 'SET Price = :p',
              ExpressionAttributeValues: { ':p': { N: '1' } },
            },
          },
          {
            ConditionCheck: {
              TableName: 'ProductCatalog',
              Key: { Id: { N: '2' } },
              ConditionExpression: 'Stock > :zero',
              ExpressionAttributeValues: { ':zero': { N: '0' } },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          {
            Put: {
              TableName: 'ProductCatalog',
              Item: { Id: { N: '3' } },
              ConditionExpression: 'attribute_exists(Id)',
            },
          },
        ],
      }),
    );
    expect(error).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      Message:
        'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, ConditionalCheckFailed]',
      CancellationReasons: [
        { Code: 'None' },
        {
          Code: 'ConditionalCheckFailed',
          Message: 'The conditional request failed',
          Item: { Id: { N: '2' }, Stock: { N: '0' } },
        },
        { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
      ],
    });
    expect(get().Price).toEqual({ N: '10' });
  });
});
