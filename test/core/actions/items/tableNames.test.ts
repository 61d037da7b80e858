import { beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../../core/engine.js';
import { validation, wireError } from '../../../helpers/errors.js';
import { addTable } from '../../../helpers/tables.js';

/**
 * A data-plane TableName is a table name or its ARN, 1..1024 characters
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html); a name that is
 * not an ARN is held to 3..255 and the pattern, in the 2026 texts of nubo-db/dynamodb-conformance
 * tests/tier3/error-messages/putItem.test.ts (docs/dynamodb.md §2.5.3).
 */
let engine: Engine;
beforeEach(() => {
  engine = new Engine();
  addTable(engine, 'Orders', ['id', 'S']);
});

const key = { id: { S: 'a' } };
const put = (TableName: string) => wireError(() => engine.execute('PutItem', { TableName, Item: key }));
const constraint = (value: string, rule: string) =>
  validation(
    `1 validation error detected: Value '${value}' at 'tableName' failed to satisfy constraint: ${rule}`,
  );

describe('data-plane TableName', () => {
  it('reports an empty name with the one constraint length >= 1', () => {
    expect(put('')).toEqual(constraint('', 'Member must have length greater than or equal to 1'));
  });

  it('holds a name to 3..255 characters at both ends', () => {
    expect(put('ab')).toEqual(constraint('ab', 'Member must have length greater than or equal to 3'));
    // 255 passes validation: the table is then looked up.
    expect(put('a'.repeat(255)).__type).toBe('com.amazonaws.dynamodb.v20120810#ResourceNotFoundException');
    expect(put('a'.repeat(256))).toEqual(
      constraint('a'.repeat(256), 'Member must have length less than or equal to 255'),
    );
  });

  it('holds a name to the pattern', () => {
    expect(put('bad table!@#')).toEqual(
      constraint('bad table!@#', 'Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+'),
    );
  });

  it("takes the table's ARN wherever a name is taken", () => {
    const arn = 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders';
    expect(engine.execute('PutItem', { TableName: arn, Item: key })).toEqual({});
    expect(engine.execute('GetItem', { TableName: arn, Key: key })).toEqual({ Item: key });
    expect(
      engine.execute('Query', {
        TableName: arn,
        KeyConditionExpression: 'id = :a',
        ExpressionAttributeValues: { ':a': key.id },
      }),
    ).toMatchObject({ Count: 1 });
  });

  it('answers ResourceNotFoundException for the ARN of a table that is not there', () => {
    expect(
      wireError(() =>
        engine.execute('GetItem', {
          TableName: 'arn:aws:dynamodb:us-east-1:000000000000:table/Nope',
          Key: key,
        }),
      ),
    ).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
      message: 'Requested resource not found',
    });
  });
});
