import { describe, expect, it } from 'vitest';
import { NOT_FOUND, wireError } from '../../../helpers/errors.js';
import {
  arnOf,
  expectConstraints,
  expectValidation,
  hashTable,
  instantEngine,
  slowEngine,
} from './helpers.js';

const ARN = arnOf('tagged');

function taggedEngine() {
  const engine = instantEngine();
  engine.execute('CreateTable', hashTable('tagged'));
  return engine;
}

const list = (engine: ReturnType<typeof instantEngine>, arn = ARN) =>
  engine.execute('ListTagsOfResource', { ResourceArn: arn }).Tags;

describe('TagResource, UntagResource, ListTagsOfResource (docs/dynamodb.md §3.4.3)', () => {
  it('adds, overwrites and removes tags, answering empty bodies', () => {
    const engine = taggedEngine();
    expect(list(engine)).toEqual([]);
    expect(
      engine.execute('TagResource', {
        ResourceArn: ARN,
        Tags: [
          { Key: 'string', Value: 'string' },
          { Key: '7', Value: ' ' },
        ],
      }),
    ).toEqual({});
    expect(
      engine.execute('TagResource', {
        ResourceArn: ARN,
        Tags: [
          { Key: 'string', Value: 'other' },
          { Key: 'empty', Value: '' },
        ],
      }),
    ).toEqual({});
    expect(list(engine)).toEqual([
      { Key: 'string', Value: 'other' },
      { Key: '7', Value: ' ' },
      { Key: 'empty', Value: '' },
    ]);
    expect(engine.execute('UntagResource', { ResourceArn: ARN, TagKeys: ['7', 'non-existent'] })).toEqual({});
    expect(list(engine)).toEqual([
      { Key: 'string', Value: 'other' },
      { Key: 'empty', Value: '' },
    ]);
  });

  it.each(['__proto__', 'constructor', 'toString'])('treats the tag key %s as data', (key) => {
    const engine = taggedEngine();
    engine.execute('TagResource', { ResourceArn: ARN, Tags: [{ Key: key, Value: 'v' }] });
    expect(list(engine)).toEqual([{ Key: key, Value: 'v' }]);
    engine.execute('UntagResource', { ResourceArn: ARN, TagKeys: [key] });
    expect(list(engine)).toEqual([]);
  });

  it('shows changes only after the transient delay', async () => {
    const { engine, clock } = slowEngine(100);
    engine.execute('CreateTable', hashTable('tagged'));
    await clock.advance(100);
    engine.execute('TagResource', { ResourceArn: ARN, Tags: [{ Key: 'k', Value: 'v' }] });
    expect(list(engine)).toEqual([]);
    await clock.advance(100);
    expect(list(engine)).toEqual([{ Key: 'k', Value: 'v' }]);
  });

  it('allows 50 tags in all and refuses a 51st', () => {
    const engine = taggedEngine();
    const tags = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => ({ Key: `${from + i}`, Value: `${from + i}` }));
    engine.execute('TagResource', { ResourceArn: ARN, Tags: tags(0, 30) });
    engine.execute('TagResource', { ResourceArn: ARN, Tags: tags(20, 50) });
    expectValidation(
      engine,
      'TagResource',
      { ResourceArn: ARN, Tags: tags(50, 51) },
      'Number of Tags exceed the current limit for the provided ResourceArn',
    );
    expect(list(engine) as unknown[]).toHaveLength(50);
  });

  it.each(['TagResource', 'UntagResource', 'ListTagsOfResource'])(
    '%s answers Invalid TableArn without an ARN',
    (operation) => {
      expectValidation(taggedEngine(), operation, {}, 'Invalid TableArn');
    },
  );

  it.each([
    ['TagResource', 'tags'],
    ['UntagResource', 'tagKeys'],
  ])('%s lists a missing %s', (operation, member) => {
    expectValidation(
      taggedEngine(),
      operation,
      { ResourceArn: 'a:b:c:d:e:f/g' },
      `1 validation error detected: Value null at '${member}' failed to satisfy constraint: Member must not be null`,
    );
  });

  describe.each([
    ['TagResource', { Tags: [{ Key: 'x', Value: 'y' }] }],
    ['UntagResource', { TagKeys: ['x'] }],
    ['ListTagsOfResource', {}],
  ])('%s ARN checks (docs/dynamodb.md §9.6)', (operation, rest) => {
    const engine = taggedEngine();
    // Not shaped like an ARN (six `:` parts, a `/` in the last): IAM refuses it, the empty ARN
    // as `*` (dynalite's tests/listTagsOfResource.js, recorded in 2017 and again in 2025).
    it.each(['', 'I_do_not_exist', 'abcd', 'a:b:c:d:e:f', 'a:b:c:d:e/f', ' '])(
      'answers AccessDeniedException for %j',
      (arn) => {
        expect(wireError(() => engine.execute(operation, { ResourceArn: arn, ...rest }))).toEqual({
          __type: 'com.amazon.coral.service#AccessDeniedException',
          Message: `User: arn:aws:iam::000000000000:root is not authorized to perform: dynamodb:${operation} on resource: ${arn === '' ? '*' : arn}`,
        });
      },
    );
    it('answers AccessDeniedException for a table of another account', () => {
      const arn = 'arn:aws:dynamodb:us-east-1:123456789012:table/tagged';
      expect(wireError(() => engine.execute(operation, { ResourceArn: arn, ...rest }))).toMatchObject({
        __type: 'com.amazon.coral.service#AccessDeniedException',
      });
    });
    it.each([
      'a:b:c:d:e:f/g',
      'arn:not:a:good:format:x/y',
      `${arnOf('ab')}`,
      'arn:aws:dynamodb:eu-west-1:000000000000:table/tagged',
    ])('answers Invalid TableArn for %s', (arn) => {
      expectValidation(
        engine,
        operation,
        { ResourceArn: arn, ...rest },
        `Invalid TableArn: Invalid ResourceArn provided as input ${arn}`,
      );
    });
    it('refuses an index ARN', () => {
      const arn = `${ARN}/index/gsi`;
      expectValidation(
        engine,
        operation,
        { ResourceArn: arn, ...rest },
        `One or more parameter values were invalid: Invalid resource arn provided, only table or stream is accepted. Provided resource arn: ${arn}`,
      );
    });
    it('answers ResourceNotFoundException for a missing table, naming the ARN but in UntagResource', () => {
      // "ResourcArn" (sic) in ListTagsOfResource and TagResource; UntagResource answers the plain
      // text (dynalite's tests and actions, docs/dynamodb.md §3.4.3).
      const arn = `${ARN}x`;
      expect(wireError(() => engine.execute(operation, { ResourceArn: arn, ...rest }))).toEqual({
        __type: NOT_FOUND,
        message:
          operation === 'UntagResource'
            ? 'Requested resource not found'
            : `Requested resource not found: ResourcArn: ${arn} not found`,
      });
    });
  });

  it('asks for at least one tag or key', () => {
    const engine = taggedEngine();
    expectValidation(
      engine,
      'TagResource',
      { ResourceArn: ARN, Tags: [] },
      'Atleast one Tag needs to be provided as Input.',
    );
    expectValidation(
      engine,
      'UntagResource',
      { ResourceArn: ARN, TagKeys: [] },
      'Atleast one Tag Key needs to be provided as Input.',
    );
  });

  it.each([
    [{ Key: 'hi!', Value: 'dog' }, 'The Tag Key provided is invalid, Key: hi!'],
    [{ Key: 'dog', Value: 'd%g' }, 'The Tag Value provided is invalid, Value: d%g'],
    [{ Key: 'aws:owner', Value: 'me' }, 'Tag Key cannot be prefixed with aws:, Key: aws:owner'],
  ])('refuses bad tag text (%#)', (tag, message) => {
    expectValidation(taggedEngine(), 'TagResource', { ResourceArn: ARN, Tags: [tag] }, message);
  });

  it('refuses a key given twice', () => {
    expectValidation(
      taggedEngine(),
      'TagResource',
      {
        ResourceArn: ARN,
        Tags: [
          { Key: 'k', Value: '1' },
          { Key: 'k', Value: '2' },
        ],
      },
      'Duplicate Tag Keys provided as input: Duplicate Tag Key found k',
    );
  });

  it('accepts 128-character keys and 256-character values, and lists longer ones', () => {
    const engine = taggedEngine();
    engine.execute('TagResource', {
      ResourceArn: ARN,
      Tags: [{ Key: 'k'.repeat(128), Value: 'v'.repeat(256) }],
    });
    expectConstraints(
      engine,
      'TagResource',
      { ResourceArn: ARN, Tags: [{ Key: 'k'.repeat(129), Value: 'v'.repeat(257) }] },
      [
        `Value '${'k'.repeat(129)}' at 'tags.1.member.key' failed to satisfy constraint: Member must have length less than or equal to 128`,
        `Value '${'v'.repeat(257)}' at 'tags.1.member.value' failed to satisfy constraint: Member must have length less than or equal to 256`,
      ],
    );
    expectConstraints(engine, 'TagResource', { ResourceArn: ARN, Tags: [{ Key: '' }] }, [
      "Value '' at 'tags.1.member.key' failed to satisfy constraint: Member must have length greater than or equal to 1",
      "Value null at 'tags.1.member.value' failed to satisfy constraint: Member must not be null",
    ]);
  });
});
