import { beforeEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../../core/changeEvent.js';
import { Engine } from '../../../../core/engine.js';
import { validation, wireError } from '../../../helpers/errors.js';
import { addTable } from '../../../helpers/tables.js';

let engine: Engine;
beforeEach(() => {
  engine = new Engine();
  addTable(engine, 'TableA', ['id', 'S']);
  addTable(engine, 'TableB', ['id', 'N']);
});

const put = (id: string) => ({ PutRequest: { Item: { id: { S: id }, v: { S: `value ${id}` } } } });

describe('BatchWriteItem', () => {
  it('writes to several tables, one change event per item, and answers UnprocessedItems {}', () => {
    const events: ChangeEvent[] = [];
    engine.onCommit((event) => events.push(event));
    const result = engine.execute('BatchWriteItem', {
      RequestItems: { TableA: [put('1'), put('2')], TableB: [{ PutRequest: { Item: { id: { N: '1' } } } }] },
    });
    expect(result).toEqual({ UnprocessedItems: {} });
    expect(events.map((event) => `${event.table.tableName}:${event.eventName}`)).toEqual([
      'TableA:INSERT',
      'TableA:INSERT',
      'TableB:INSERT',
    ]);
    expect(new Set(events.map((event) => event.commitId)).size).toBe(3);
    engine.execute('BatchWriteItem', {
      RequestItems: { TableA: [{ DeleteRequest: { Key: { id: { S: '1' } } } }] },
    });
    expect(engine.execute('GetItem', { TableName: 'TableA', Key: { id: { S: '1' } } })).toEqual({});
  });

  it('rejects duplicates by value after the table lookup, the same key in two tables is fine (docs/dynamodb.md §7.2.2)', () => {
    expect(
      wireError(() =>
        engine.execute('BatchWriteItem', {
          RequestItems: {
            TableB: [
              { PutRequest: { Item: { id: { N: '1000' } } } },
              { DeleteRequest: { Key: { id: { N: '1e3' } } } },
            ],
          },
        }),
      ),
    ).toEqual(validation('Provided list of item keys contains duplicates'));
    expect(
      engine.execute('BatchWriteItem', {
        RequestItems: { TableA: [put('x')], TableB: [{ PutRequest: { Item: { id: { N: '1' } } } }] },
      }),
    ).toEqual({ UnprocessedItems: {} });
  });

  it('rejects a bad request anywhere before applying any (docs/dynamodb.md §7.2.1)', () => {
    const error = wireError(() =>
      engine.execute('BatchWriteItem', {
        RequestItems: { TableA: [put('ok'), { PutRequest: { Item: { id: { N: '1' } } } }] },
      }),
    );
    // A PutRequest's key of another type reads as a schema mismatch, not PutItem's `Type mismatch`
    // (nubo-db/dynamodb-conformance tests/tier3/error-messages/batchWriteItem.test.ts, four regions, 2026).
    expect(error).toEqual(validation('The provided key element does not match the schema'));
    expect(engine.execute('GetItem', { TableName: 'TableA', Key: { id: { S: 'ok' } } })).toEqual({});
  });

  it('reads an empty request object as "more than one datatypes set" (sic)', () => {
    expect(wireError(() => engine.execute('BatchWriteItem', { RequestItems: { TableA: [{}] } }))).toEqual(
      validation(
        'Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes',
      ),
    );
  });

  it('limits a table to 25 requests (docs/dynamodb.md §7.2.1)', () => {
    const many = Array.from({ length: 26 }, (_, i) => put(String(i)));
    const error = wireError(() => engine.execute('BatchWriteItem', { RequestItems: { TableA: many } }));
    expect(error.__type).toBe('com.amazon.coral.validate#ValidationException');
    expect(String(error.message)).toMatch(
      /^1 validation error detected: Value '.*' at 'requestItems' failed to satisfy constraint: /,
    );
    expect(String(error.message)).toContain(
      'Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]',
    );
  });

  it('answers ResourceNotFoundException when a table is missing, writing nothing', () => {
    const error = wireError(() =>
      engine.execute('BatchWriteItem', { RequestItems: { TableA: [put('1')], Missing: [put('1')] } }),
    );
    expect(error.__type).toBe('com.amazonaws.dynamodb.v20120810#ResourceNotFoundException');
    expect(engine.execute('GetItem', { TableName: 'TableA', Key: { id: { S: '1' } } })).toEqual({});
  });

  it('reports consumed capacity per table', () => {
    const result = engine.execute('BatchWriteItem', {
      RequestItems: { TableA: [put('1'), put('2')], TableB: [{ PutRequest: { Item: { id: { N: '1' } } } }] },
      ReturnConsumedCapacity: 'TOTAL',
    });
    expect(result.ConsumedCapacity).toEqual([
      { TableName: 'TableA', CapacityUnits: 2 },
      { TableName: 'TableB', CapacityUnits: 1 },
    ]);
  });
});

describe('BatchGetItem', () => {
  beforeEach(() => {
    engine.execute('BatchWriteItem', {
      RequestItems: { TableA: [put('1'), put('2')], TableB: [{ PutRequest: { Item: { id: { N: '7' } } } }] },
    });
  });

  it('reads several tables; missing items are simply absent; UnprocessedKeys is {}', () => {
    const result = engine.execute('BatchGetItem', {
      RequestItems: {
        TableA: { Keys: [{ id: { S: '1' } }, { id: { S: 'none' } }, { id: { S: '2' } }] },
        TableB: { Keys: [{ id: { N: '7' } }] },
      },
    }) as { Responses: Record<string, unknown[]>; UnprocessedKeys: unknown };
    expect(result.UnprocessedKeys).toEqual({});
    expect(result.Responses.TableA).toHaveLength(2);
    expect(result.Responses.TableB).toEqual([{ id: { N: '7' } }]);
  });

  it('rejects duplicate keys before the table lookup; 1000 and 1e3 are not duplicates here (docs/dynamodb.md §7.1.2, §9.10)', () => {
    expect(
      wireError(() =>
        engine.execute('BatchGetItem', {
          RequestItems: { Missing: { Keys: [{ id: { S: '1' } }, { id: { S: '1' } }] } },
        }),
      ),
    ).toEqual(validation('Provided list of item keys contains duplicates'));
    const result = engine.execute('BatchGetItem', {
      RequestItems: { TableB: { Keys: [{ id: { N: '1000' } }, { id: { N: '1e3' } }] } },
    }) as { Responses: Record<string, unknown[]> };
    expect(result.Responses.TableB).toEqual([]);
  });

  it('limits a call to 100 keys overall', () => {
    const keys = (prefix: string) => Array.from({ length: 60 }, (_, i) => ({ id: { S: `${prefix}${i}` } }));
    expect(
      wireError(() =>
        engine.execute('BatchGetItem', {
          RequestItems: { TableA: { Keys: keys('a') }, TableZ: { Keys: keys('z') } },
        }),
      ),
    ).toEqual(validation('Too many items requested for the BatchGetItem call'));
  });

  it('checks table names as map keys with the service text (docs/dynamodb.md §7.1.1)', () => {
    const error = wireError(() =>
      engine.execute('BatchGetItem', { RequestItems: { 'a;': { Keys: [{ id: { S: '1' } }] } } }),
    );
    expect(String(error.message)).toContain(
      'Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]',
    );
  });

  it('requires at least one table, in the texts of 2026 (docs/dynamodb.md §7.1.1, §7.2.1)', () => {
    // nubo-db/dynamodb-conformance tests/tier3/error-messages/batchGetItem.test.ts and
    // batchWriteItem.test.ts: BatchGetItem moved to the newer framework's entry in August 2026,
    // BatchWriteItem kept its own sentence.
    expect(wireError(() => engine.execute('BatchGetItem', { RequestItems: {} }))).toEqual(
      validation(
        "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1",
      ),
    );
    expect(wireError(() => engine.execute('BatchWriteItem', { RequestItems: {} }))).toEqual(
      validation('The requestItems parameter is required for BatchWriteItem'),
    );
  });

  it('returns what fits in 16 MB and the rest as UnprocessedKeys with the table parameters', () => {
    const big = 'x'.repeat(390_000);
    const keys = Array.from({ length: 45 }, (_, i) => ({ id: { S: `big${i}` } }));
    for (let i = 0; i < 45; i += 15) {
      engine.execute('BatchWriteItem', {
        RequestItems: {
          TableA: keys.slice(i, i + 15).map((Key) => ({ PutRequest: { Item: { ...Key, v: { S: big } } } })),
        },
      });
    }
    const result = engine.execute('BatchGetItem', {
      RequestItems: { TableA: { Keys: keys, ConsistentRead: true } },
    }) as {
      Responses: { TableA: unknown[] };
      UnprocessedKeys: { TableA?: { Keys: unknown[]; ConsistentRead: boolean } };
    };
    // 43 items of 390,008 bytes hold 16,770,344 bytes; the 44th would pass 16 MiB, so the read
    // stops before it (API_BatchGetItem.html: "returns a partial result if the response size limit
    // is exceeded"; docs/dynamodb.md §7.1.3).
    expect(result.Responses.TableA.length).toBe(43);
    expect(result.UnprocessedKeys.TableA).toEqual({ Keys: [keys[43], keys[44]], ConsistentRead: true });
  });

  it('returns an item that ends one byte under or exactly at 16 MiB, and stops one byte over (docs/dynamodb.md §7.1.3)', () => {
    // 41 items of 400,000 bytes (a 4-character id, the names `id` and `v`: 7 bytes, then the
    // value), and a last one that fills 16 MiB exactly: 16,777,216 − 16,400,000 = 377,216 bytes.
    const write = (id: string, bytes: number) =>
      engine.execute('PutItem', {
        TableName: 'TableA',
        Item: { id: { S: id }, v: { S: 'x'.repeat(bytes - 7) } },
      });
    const keys = Array.from({ length: 41 }, (_, i) => ({ id: { S: `f${String(i).padStart(3, '0')}` } }));
    for (const key of keys) write(key.id.S, 400_000);
    const last = { id: { S: 'zzzz' } };
    const read = () =>
      engine.execute('BatchGetItem', { RequestItems: { TableA: { Keys: [...keys, last] } } }) as {
        Responses: { TableA: unknown[] };
        UnprocessedKeys: { TableA?: { Keys: unknown[] } };
      };
    write('zzzz', 377_215);
    expect(read().Responses.TableA).toHaveLength(42);
    write('zzzz', 377_216);
    const exact = read();
    expect(exact.Responses.TableA).toHaveLength(42);
    expect(exact.UnprocessedKeys).toEqual({});
    write('zzzz', 377_217);
    const over = read();
    expect(over.Responses.TableA).toHaveLength(41);
    expect(over.UnprocessedKeys.TableA?.Keys).toEqual([last]);
  });
});
