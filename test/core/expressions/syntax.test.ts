import { describe, expect, it } from 'vitest';
import { ValidationException } from '../../../core/errors/index.js';
import { CONDITION_KEYWORDS, tokenize } from '../../../core/expressions/lexer.js';
import { parseConditionText } from '../../../core/expressions/parseCondition.js';
import { MAX_NESTING } from '../../../core/expressions/parser.js';
import { UpdateParser } from '../../../core/expressions/parseUpdate.js';
import { isReservedWord, RESERVED_WORDS } from '../../../core/expressions/reservedWords.js';
import { N, S, scope, validationMessage } from './helpers.js';

const values = { ':v': S('x'), ':n': N('1') };
const condition = (text: string, kind: 'Condition' | 'Filter' = 'Condition') =>
  validationMessage(() => scope(undefined, values).parseCondition(text, kind));
const update = (text: string) => validationMessage(() => scope(undefined, values).parseUpdate(text));
const projection = (text: string) => validationMessage(() => scope().parseProjection(text));

describe('tokenize', () => {
  it('reads names, references, numbers, two-character comparators and keywords', () => {
    // Act
    const tokens = tokenize('a1_ #b :c_2 [10] <> <= >= and BeTwEeN', CONDITION_KEYWORDS);
    // Assess
    expect(tokens.map((token) => [token.kind, token.text])).toEqual([
      ['name', 'a1_'],
      ['nameRef', '#b'],
      ['valueRef', ':c_2'],
      ['punct', '['],
      ['number', '10'],
      ['punct', ']'],
      ['punct', '<>'],
      ['punct', '<='],
      ['punct', '>='],
      ['keyword', 'and'],
      ['keyword', 'BeTwEeN'],
      ['eof', '<EOF>'],
    ]);
  });

  it('turns a bare sigil and unknown characters into single invalid tokens', () => {
    const tokens = tokenize('# : _ ü 😀', CONDITION_KEYWORDS);
    expect(tokens.filter((token) => token.kind === 'invalid').map((token) => token.text)).toEqual([
      '#',
      ':',
      '_',
      'ü',
      '😀',
    ]);
  });
});

describe('syntax errors (docs/dynamodb.md §5.1.2)', () => {
  it('names the bad token and the text from the previous to the next token, as recorded', () => {
    expect(update('SET _123 = :n')).toBe(
      'Invalid UpdateExpression: Syntax error; token: "_", near: "SET _123"',
    );
    expect(condition('foo')).toBe('Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "foo"');
    expect(condition('attribute_type()')).toBe(
      'Invalid ConditionExpression: Syntax error; token: ")", near: "()"',
    );
    expect(projection('l[a]')).toBe('Invalid ProjectionExpression: Syntax error; token: "a", near: "[a]"');
    expect(update('SET a = list_append(b, 0)')).toBe(
      'Invalid UpdateExpression: Syntax error; token: "0", near: ", 0)"',
    );
    expect(validationMessage(() => scope().parseKeyCondition('[object Object]'))).toBe(
      'Invalid KeyConditionExpression: Syntax error; token: "[", near: "[object"',
    );
  });

  it.each([
    'things are not gonna be ok',
    'a > 4',
    'attribute_exists(Pictures-RearView)',
    'attribute_exists("Pictures.RearView")',
    'attribute_exists(Pictures..RearView)',
    'attribute_exists(asdf[a])',
    'a.:a < b.:b',
    'a > between',
    'a in b',
    'a in (b,c,)',
    'a IN ()',
    '(a)between(b.(c.d))and(c)',
    '(a)between(b.c.d)and((c)',
    'b[:a] > a',
    'b[#_] > a',
    'b[-1] > a',
    'b[] > a',
    'ü > a',
    'size(a).b > a',
    '(size(a)).b > a',
    'a',
    ':v',
    'a = b = c',
    '_a = b',
    '1a = b',
    'a-b = c',
  ])('rejects the condition %s as a syntax error', (text) => {
    expect(condition(text, 'Filter')).toMatch(
      /^Invalid FilterExpression: Syntax error; token: ".*", near: ".*"$/,
    );
  });

  it.each([
    'whatever',
    'set a',
    'set a=set',
    'remove a = b',
    'add a = b',
    'delete a b',
    'delete a if_not_exist(b)',
    'add abort b',
    'remove a b',
    'set a b',
    'set :a = b',
    'remove :a',
    'set a = b / c',
    'set a = b * c',
    'set a[1] = 1',
    'SET if_not_exist(a, b) = a',
    'set (a = (b + c))',
    'set a = (b.c).d + e',
    'set a = b + c + d',
    'set a = (b + c) + d',
    'SET c = if_not_exists(c, :v+:n)',
    'SET a = _f(b)',
    'SET a = :v,',
    'SET a = :',
    'SET # = :v',
  ])('rejects the update %s as a syntax error', (text) => {
    expect(update(text)).toMatch(/^Invalid UpdateExpression: Syntax error; token: ".*", near: ".*"$/);
  });

  it.each(['a,', ',a', 'a,,b', 'a b', 'a.', 'a[1', '#'])(
    'rejects the projection %s as a syntax error',
    (text) => {
      expect(projection(text)).toMatch(/^Invalid ProjectionExpression: Syntax error; /);
    },
  );

  it('accepts keywords in any case, spaces anywhere and parenthesised paths in conditions', () => {
    expect(() =>
      scope(undefined, values).parseCondition('(a).b[0] = :v aNd NOT (c) bEtWeEn :n AnD :n', 'Condition'),
    ).not.toThrow();
    expect(() => scope(undefined, values).parseUpdate('  sEt   a . b [ 1 ]=:v  ')).not.toThrow();
  });
});

describe('empty and oversized expressions (docs/dynamodb.md §5.1.2, §2.6.1)', () => {
  it('rejects empty and blank expressions of every kind', () => {
    expect(update('')).toBe('Invalid UpdateExpression: The expression can not be empty;');
    expect(condition('')).toBe('Invalid ConditionExpression: The expression can not be empty;');
    expect(condition('  \n', 'Filter')).toBe('Invalid FilterExpression: The expression can not be empty;');
    expect(projection('')).toBe('Invalid ProjectionExpression: The expression can not be empty;');
    expect(validationMessage(() => scope().parseKeyCondition(''))).toBe(
      'Invalid KeyConditionExpression: The expression can not be empty;',
    );
  });

  it('rejects more than 4096 bytes before parsing, counting UTF-8 bytes', () => {
    // Prepare: 4097 bytes of nonsense would otherwise be a syntax error.
    const ascii = `a = ${'b'.repeat(4093)}`;
    const multiByte = `a = ${'é'.repeat(2047)}`; // 4 + 4094 bytes
    // Assess
    expect(condition(ascii)).toBe(
      'Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097',
    );
    expect(condition(multiByte)).toBe(
      'Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4098',
    );
    expect(() =>
      scope(undefined, values).parseCondition(`a${'b'.repeat(4087)} = :v`, 'Condition'),
    ).not.toThrow();
  });
});

describe('operator limit (docs/dynamodb.md §2.6.2)', () => {
  it('accepts 300 operators and reports the 301st; parentheses and functions do not count', () => {
    // Prepare: a<b or (a<b or (...)): 149 levels hold 299 operators.
    const nested = (depth: number) => `a<b ${'or (a<b '.repeat(depth)}${')'.repeat(depth)}`;
    // Assess
    expect(() => scope().parseCondition(nested(149), 'Condition')).not.toThrow();
    expect(() => scope().parseCondition(`${nested(149)} AND attribute_exists(c)`, 'Condition')).not.toThrow();
    expect(condition(`${nested(150)}`)).toBe(
      'Invalid ConditionExpression: The expression contains too many operators; operator count: 301',
    );
  });

  it('counts + and - in update expressions', () => {
    const actions = Array.from({ length: 301 }, (_, i) => `a${i}=:n+:n`).join(',');
    expect(update(`SET ${actions}`)).toBe(
      'Invalid UpdateExpression: The expression contains too many operators; operator count: 301',
    );
  });
});

describe('document paths (docs/dynamodb.md §2.6.4, §5.1.4)', () => {
  it('accepts 32 levels and rejects 33', () => {
    expect(() => scope().parseProjection(`a${'.b'.repeat(31)}`)).not.toThrow();
    expect(projection(`a${'.b'.repeat(32)}`)).toBe(
      'Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: 33',
    );
    expect(projection(`a${'[0]'.repeat(40)}`)).toBe(
      'Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: 41',
    );
  });

  it('rejects list indexes beyond a 32-bit integer, printing them as written', () => {
    expect(projection('a[99999999999999]')).toBe(
      'Invalid ProjectionExpression: List index is not within the allowable range; index: [99999999999999]',
    );
    expect(projection('a[2147483648]')).toBe(
      'Invalid ProjectionExpression: List index is not within the allowable range; index: [2147483648]',
    );
    expect(() => scope().parseProjection('a[2147483647]')).not.toThrow();
  });
});

describe('reserved words (docs/dynamodb.md §5.1.3)', () => {
  it('holds the 573 words of the official list, looked up case-insensitively', () => {
    expect(RESERVED_WORDS.size).toBe(573);
    expect(isReservedWord('abOrt')).toBe(true);
    expect(isReservedWord('zone')).toBe(true);
    expect(isReservedWord('constructor')).toBe(true);
    expect(isReservedWord('toString')).toBe(false);
    expect(isReservedWord('__proto__')).toBe(false);
  });

  it('reports a reserved bare name as written, in every kind of expression', () => {
    expect(update(' set #c = :v set abOrt = :n ')).toBe(
      'Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: abOrt',
    );
    expect(update(' remove Absolute ')).toBe(
      'Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: Absolute',
    );
    expect(condition(':v < abOrT', 'Filter')).toBe(
      'Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: abOrT',
    );
    expect(projection('a, b.Size')).toBe(
      'Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: Size',
    );
  });

  it('treats the keywords of another grammar as names (a reserved word in a condition)', () => {
    expect(condition('set = :v')).toBe(
      'Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: set',
    );
  });
});

describe('nesting depth (no stack overflow, whatever the text)', () => {
  // The 4096-byte limit (docs/dynamodb.md §2.6.1) is checked before parsing and allows 2,046
  // levels of `(`; the parser alone must still never overflow (measured: 3,000 levels did).
  const parse = (text: string, parser: (text: string) => unknown) => {
    try {
      parser(text);
      return 'parsed';
    } catch (error) {
      return error instanceof ValidationException
        ? error.message
        : `${(error as Error).name}: ${(error as Error).message}`;
    }
  };
  const deep = 5000;

  it('answers redundant parentheses for groups nested past the limit', () => {
    const groups = `${'('.repeat(deep)}a = :v${')'.repeat(deep)}`;
    expect(parse(groups, (text) => parseConditionText(text, 'Condition'))).toBe(
      'Invalid ConditionExpression: The expression has redundant parentheses;',
    );
    expect(
      parse(`SET a = ${'('.repeat(deep)}:v${')'.repeat(deep)}`, (text) => new UpdateParser(text).parse()),
    ).toBe('Invalid UpdateExpression: The expression has redundant parentheses;');
  });

  it('answers a syntax error where calls nest past the limit, and parses 1,000 levels', () => {
    const calls = (levels: number) => `size(${'f('.repeat(levels)}a${')'.repeat(levels)}) = :v`;
    expect(parse(calls(deep), (text) => parseConditionText(text, 'Condition'))).toMatch(
      /^Invalid ConditionExpression: Syntax error; token: "\(", near: "f\(f"$/,
    );
    expect(parse(calls(MAX_NESTING - 1), (text) => parseConditionText(text, 'Condition'))).toBe('parsed');
  });
});
