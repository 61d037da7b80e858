import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../core/engine.js';
import { engineWith, failure, run } from './helpers.js';

/**
 * The parser's answers. Messages are those pinned against DynamoDB (eu-west-2, October 2026) by
 * paritysuite/dynamodb-conformance tests/tier3/error-messages/partiqlGrammar.test.ts and
 * tests/tier2/partiql/grammar.test.ts, unless a test says otherwise.
 */
const NOT_WELL_FORMED = "Statement wasn't well formed, can't be processed: ";
const LEFTOVER = `${NOT_WELL_FORMED}Unexpected token after expression`;
const HASH_S = {
  TableName: 'Str',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
};
const HASH_N = {
  ...HASH_S,
  TableName: 'Num',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'N' }],
};

let engine: Engine;
beforeEach(() => {
  engine = engineWith([HASH_S, HASH_N]);
  engine.execute('PutItem', { TableName: 'Num', Item: { pk: { N: '7310000' } } });
  engine.execute('PutItem', { TableName: 'Num', Item: { pk: { N: '-7.3' } } });
  engine.execute('PutItem', { TableName: 'Str', Item: { pk: { S: 'a' } } });
});

const invalid = (message: string) => ({ name: 'ValidationException', message });

describe('PartiQL grammar', () => {
  it.each([
    ['a token after a SELECT WHERE clause', 'SELECT * FROM "Num" WHERE pk = 1 foo'],
    ['a number split from its exponent', 'SELECT * FROM "Num" WHERE pk = 1 e5'],
    ['a token after an INSERT item', `INSERT INTO "Num" VALUE {'pk': 970001} foo`],
    ['a token after an UPDATE WHERE clause', 'UPDATE "Num" SET a = 9 WHERE pk = 970002 foo'],
    ['a token after a DELETE WHERE clause', 'DELETE FROM "Num" WHERE pk = 970003 foo'],
    ['a stray closing parenthesis', 'SELECT * FROM "Num" WHERE pk = 1)'],
    ['ORDER BY on a DELETE', 'DELETE FROM "Num" WHERE pk = 970004 ORDER BY pk'],
    ['ORDER BY ahead of WHERE', 'SELECT * FROM "Num" ORDER BY pk WHERE pk = 1'],
    ['an alias on an INSERT', `INSERT INTO "Str" t VALUE {'pk': 'x'}`],
    ['a WHERE after SET in the FROM-first UPDATE', `FROM "Str" SET c = 1 WHERE pk = 'x'`],
  ])('answers "Unexpected token after expression" for %s', (_case, statement) => {
    expect(failure(engine, statement)).toEqual(invalid(LEFTOVER));
  });

  it.each([
    ['an exponent beyond a 32-bit integer', 'SELECT * FROM "Num" WHERE pk = 1e2147483648'],
    ['a far larger exponent', 'SELECT * FROM "Num" WHERE pk = 1e99999999999'],
    ['a scale beyond a 32-bit integer', 'SELECT * FROM "Num" WHERE pk = 1.5e-2147483647'],
    ['a hash comment', 'SELECT * FROM "Num" WHERE pk = 1 # note'],
    ['an unterminated block comment', 'SELECT * FROM "Num" WHERE pk = 1 /* note'],
  ])('answers the envelope with nothing after it for %s', (_case, statement) => {
    expect(failure(engine, statement)).toEqual(invalid(NOT_WELL_FORMED));
  });

  it.each([
    `SELECT * FROM "Str" t WHERE pk = 'x'`,
    `SELECT * FROM "Str" AS t WHERE pk = 'x'`,
    `UPDATE "Str" t SET a = 3 WHERE pk = 'x'`,
    `DELETE FROM "Str" t WHERE pk = 'x'`,
  ])('refuses the table alias of %s and changes nothing', (statement) => {
    expect(failure(engine, statement)).toEqual(invalid('Aliasing is not supported'));
    expect(engine.execute('GetItem', { TableName: 'Str', Key: { pk: { S: 'x' } } })).toEqual({});
  });

  it.each([
    'SELECT * FROM "Str" WHERE',
    'SELECT * FROM "Str" WHERE;',
    'SELECT * FROM "Str" WHERE   ',
    'SELECT pk FROM "Str" WHERE',
    'UPDATE "Str" SET a = 1 WHERE',
    'DELETE FROM "Str" WHERE',
    'SELECT * FROM "Str" WHERE NOT',
    'SELECT * FROM "Str" WHERE (',
    'SELECT * FROM "Str-never-created" WHERE',
    'SELECT * FROM',
  ])('answers "Unexpected term" where a term should start: %s', (statement) => {
    expect(failure(engine, statement)).toEqual(invalid(`${NOT_WELL_FORMED}Unexpected term`));
  });

  it.each([
    [`SELECT * FROM "Str" WHERE pk = 'p1' AND`, 'Missing right-hand side expression of infix operator'],
    [`SELECT * FROM "Str" WHERE pk = 'p1' OR`, 'Missing right-hand side expression of infix operator'],
    ['SELECT * FROM "Str" WHERE ORDER BY pk', 'Unexpected keyword'],
    [`SELECT * FROM "Str" WHERE pk = 'a' AND x IS FOO`, 'Expected type name'],
    ['SELECT * FROM "Str" WHERE IS NULL', 'Unexpected operator'],
    ['SELECT * FROM "Str" WHERE pk = LIKE', 'Unexpected operator'],
    ['DELETE FROM', 'Expected identifier for simple path'],
    ['DELETE FROM   ', 'Expected identifier for simple path'],
    ['DELETE FROM;', 'Expected identifier for simple path'],
    [`DELETE FROM WHERE pk = 'a'`, 'Expected identifier for simple path'],
    [`SELECT * FROM "Str" WHERE pk = 'a' AND attribute_exists(m.inner)`, 'Invalid path dot component'],
  ])('answers the parser detail for %s', (statement, detail) => {
    expect(failure(engine, statement)).toEqual(invalid(`${NOT_WELL_FORMED}${detail}`));
  });

  it.each(['INT4', 'INT8', 'DOUBLE PRECISION', 'CHARACTER VARYING'])(
    'parses `x IS %s` and refuses it as a bare expression',
    (type) => {
      expect(failure(engine, `x IS ${type}`)).toEqual(invalid('Unsupported operation: IsType'));
    },
  );

  // nubo-db/dynoxide pull request 149, confirmed against DynamoDB (eu-west-2, July 2026).
  it('answers "Expected data manipulation" for a statement that does not start with one', () => {
    expect(failure(engine, 'SLECT * FROM "Str"')).toEqual(
      invalid(`${NOT_WELL_FORMED}Expected data manipulation`),
    );
  });

  it.each([
    [
      'a WHERE literal above the largest number',
      'SELECT * FROM "Num" WHERE pk = 1e126',
      'Number overflow. Attempting to store a number with magnitude larger than supported range under root',
    ],
    [
      'a WHERE literal below the smallest number',
      'SELECT * FROM "Num" WHERE pk = 1e-131',
      'Number underflow. Attempting to store a number with magnitude smaller than supported range under root',
    ],
    [
      '39 significant digits',
      'SELECT * FROM "Num" WHERE pk = 123456789012345678901234567890123456789',
      'Attempting to store more than 38 significant digits in a Number under root',
    ],
    [
      'an INSERT literal above the largest number',
      `INSERT INTO "Num" VALUE {'pk': 1e126}`,
      'Number overflow. Attempting to store a number with magnitude larger than supported range under root',
    ],
    [
      'an UPDATE SET literal below the smallest number',
      'UPDATE "Num" SET a = 1e-131 WHERE pk = 970005',
      'Number underflow. Attempting to store a number with magnitude smaller than supported range under root',
    ],
    [
      'a literal inside a map',
      `INSERT INTO "Num" VALUE {'pk': 970006, 'm': {'x': 1e126}}`,
      'Number overflow. Attempting to store a number with magnitude larger than supported range under root.x',
    ],
    [
      'a literal inside a list',
      `INSERT INTO "Num" VALUE {'pk': 970007, 'l': [1, 1e126]}`,
      'Number overflow. Attempting to store a number with magnitude larger than supported range under root[1]',
    ],
  ])('checks numbers by DynamoDB rules, naming where they sit: %s', (_case, statement, message) => {
    expect(failure(engine, statement)).toEqual(invalid(message));
  });

  it.each(['7.31e6', '7.31E6', '7.31e+6', '731e4', '73100000e-1'])(
    'reads the number literal %s',
    (literal) => {
      expect(run(engine, `SELECT * FROM "Num" WHERE pk = ${literal}`).Items).toEqual([
        { pk: { N: '7310000' } },
      ]);
    },
  );

  it('reads numbers without a leading digit, signed or not', () => {
    expect(run(engine, 'SELECT * FROM "Num" WHERE pk = -.73e1').Items).toEqual([{ pk: { N: '-7.3' } }]);
    run(engine, `INSERT INTO "Num" VALUE {'pk': .7325e1}`);
    expect(engine.execute('GetItem', { TableName: 'Num', Key: { pk: { N: '7.325' } } })).toEqual({
      Item: { pk: { N: '7.325' } },
    });
  });

  it('ignores line and block comments wherever whitespace may stand', () => {
    expect(run(engine, `SELECT * FROM "Str" WHERE pk = 'a' -- a note`).Items).toHaveLength(1);
    expect(run(engine, `SELECT * FROM "Str" -- a note\nWHERE pk = 'b'`).Items).toEqual([]);
    expect(run(engine, `-- a note\nSELECT * FROM "Str" WHERE pk = 'a'`).Items).toHaveLength(1);
    expect(run(engine, `SELECT * FROM "Str" /* a note */ WHERE pk = 'a' /* another */`).Items).toHaveLength(
      1,
    );
  });

  it('reads keywords in any case, quoted or bare table names and doubled quotes in strings', () => {
    run(engine, `insert into Str value {'pk': 'it''s'}`);
    expect(run(engine, `select * from "Str" where pk = 'it''s'`).Items).toEqual([{ pk: { S: "it's" } }]);
  });

  it('refuses an INSERT with a token left over and writes nothing', () => {
    expect(failure(engine, `INSERT INTO "Num" VALUE {'pk': 7330000} foo`).name).toBe('ValidationException');
    expect(engine.execute('GetItem', { TableName: 'Num', Key: { pk: { N: '7330000' } } })).toEqual({});
  });

  // DynamoDB Local's PartiQLStatementFunction: unverified against the service.
  it('answers the statement length constraint over 8192 characters', () => {
    const long = `SELECT * FROM "Str" WHERE pk = '${'x'.repeat(8200)}'`;
    expect(failure(engine, long).message).toContain('Member must have length less than or equal to 8192');
  });
});

describe('PartiQL bounds', () => {
  it('answers a ValidationException, not a crash, for nesting within 8,192 characters', () => {
    const deep = `SELECT * FROM "Str" WHERE ${'('.repeat(4000)}pk = 'a'${')'.repeat(4000)}`;
    expect(failure(engine, deep)).toEqual(invalid(`${NOT_WELL_FORMED}Expression nesting is too deep`));
    expect(failure(engine, `SELECT * FROM "Str" WHERE ${'NOT '.repeat(2000)}pk = 'a'`)).toEqual(
      invalid(`${NOT_WELL_FORMED}Expression nesting is too deep`),
    );
    expect(
      failure(engine, `INSERT INTO "Str" VALUE {'pk': 'a', 'l': ${'['.repeat(3000)}${']'.repeat(3000)}}`),
    ).toEqual(invalid(`${NOT_WELL_FORMED}Expression nesting is too deep`));
  });

  it('evaluates a long chain of ORs and ANDs', () => {
    const chain = Array.from({ length: 600 }, () => `pk = 'a'`).join(' OR ');
    expect(run(engine, `SELECT * FROM "Str" WHERE ${chain}`).Items).toEqual([{ pk: { S: 'a' } }]);
    const conjunction = Array.from({ length: 600 }, () => `pk = 'a'`).join(' AND ');
    expect(run(engine, `SELECT * FROM "Str" WHERE ${conjunction}`).Items).toEqual([{ pk: { S: 'a' } }]);
  });
});
