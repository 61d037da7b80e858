import fc from 'fast-check';
import { canonicalJson } from '../../core/model/canonicalJson.js';
import { TEMPLATES } from './templates.js';

/**
 * What the fuzzer sends: a template changed by a few mutations of its JSON tree, a template's
 * text with its bytes edited, or a random body; each for a template's target (sometimes
 * another template's, so a body meets an operation it was not written for).
 */
export type Mutation =
  | { readonly kind: 'replace'; readonly at: number; readonly value: unknown }
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'add'; readonly at: number; readonly key: string; readonly value: unknown }
  | { readonly kind: 'deepen'; readonly at: number; readonly depth: number; readonly shape: DeepShape }
  | { readonly kind: 'retype'; readonly at: number };

type DeepShape = 'L' | 'M' | 'array' | 'object';

export type ByteEdit =
  | { readonly kind: 'insert'; readonly at: number; readonly bytes: readonly number[] }
  | { readonly kind: 'remove'; readonly at: number; readonly length: number }
  | { readonly kind: 'truncate'; readonly at: number };

export type FuzzCase =
  | {
      readonly kind: 'mutated';
      readonly template: number;
      readonly target: number;
      readonly mutations: readonly Mutation[];
    }
  | { readonly kind: 'bytes'; readonly template: number; readonly edits: readonly ByteEdit[] }
  | { readonly kind: 'random'; readonly template: number; readonly body: unknown };

/** Strings that mean something somewhere in a request. */
const MEANINGFUL = [
  '',
  ' ',
  'Fuzz',
  'Plain',
  'Scratch',
  'ByColor',
  'ByScore',
  'pk',
  'sk',
  'color',
  '#c',
  ':c',
  ':missing',
  '#missing',
  '__proto__',
  'constructor',
  'a = :c',
  'pk = :p',
  'SET a = :c',
  'REMOVE a',
  'ADD n :one',
  'size(a) > :n',
  'attribute_exists(#c)',
  '((a = :c))',
  ')(',
  'a.b[0].c',
  'a[2147483648]',
  'ALL_OLD',
  'ALL_NEW',
  'NONE',
  'TOTAL',
  'EQ',
  'BETWEEN',
  'TRIM_HORIZON',
  'LATEST',
  'AFTER_SEQUENCE_NUMBER',
  'S',
  'N',
  'B',
  'SS',
  'HASH',
  'RANGE',
  'PAY_PER_REQUEST',
  'KEYS_ONLY',
  'NEW_AND_OLD_IMAGES',
  '1e126',
  '-1E-130',
  '0.0e126',
  'NaN',
  'Infinity',
  '99999999999999999999999999999999999999',
  '\u0000',
  '\ud800',
  'é😀',
  'arn:aws:dynamodb:us-east-1:000000000000:table/Fuzz',
  'arn:aws:dynamodb:us-east-1:000000000000:table/Fuzz/stream/2026-01-01T00:00:00.000',
  'shardId-00000000000000000000-00000000',
  'x'.repeat(300),
  'x'.repeat(70_000),
];

const textArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...MEANINGFUL) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);
const numberTextArb = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom(
    '1e126',
    '1e-131',
    '9.9999999999999999999999999999999999999E+125',
    '-0',
    '0x10',
    '1'.repeat(39),
    '',
  ),
);

/** AttributeValues, mostly well-formed, a few levels deep. */
const { attributeValue } = fc.letrec((tie) => ({
  attributeValue: fc.oneof(
    { depthSize: 'small' },
    fc.record({ S: textArb }),
    fc.record({ N: numberTextArb }),
    fc.record({ B: fc.oneof(fc.base64String({ maxLength: 12 }), textArb) }),
    fc.record({ BOOL: fc.boolean() }),
    fc.record({ NULL: fc.boolean() }),
    fc.record({ SS: fc.array(textArb, { maxLength: 3 }) }),
    fc.record({ NS: fc.array(numberTextArb, { maxLength: 3 }) }),
    fc.record({ BS: fc.array(fc.base64String({ maxLength: 8 }), { maxLength: 3 }) }),
    fc.record({ L: fc.array(tie('attributeValue'), { maxLength: 3 }) }),
    fc.record({ M: fc.dictionary(textArb, tie('attributeValue'), { maxKeys: 3 }) }),
    fc.record({ S: textArb, N: numberTextArb }),
    fc.constant({}),
  ),
}));

const valueArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: attributeValue },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: textArb },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2 ** 53,
      1e308,
      -1e308,
      [],
      {},
      [{}],
      { S: 1 },
      { '': null },
      101,
      1_000_000,
      -2_147_483_649,
    ),
  },
  { weight: 1, arbitrary: fc.array(attributeValue, { maxLength: 30 }) },
);

const keyArb = fc.oneof(
  fc.constantFrom(
    'TableName',
    'Key',
    'Item',
    'IndexName',
    'Limit',
    'Select',
    'ExclusiveStartKey',
    'ExpressionAttributeNames',
    'ExpressionAttributeValues',
    'ConditionExpression',
    'UpdateExpression',
    'KeyConditionExpression',
    'FilterExpression',
    'ProjectionExpression',
    'ReturnValues',
    'Expected',
    'AttributeUpdates',
    'KeyConditions',
    'ScanFilter',
    'QueryFilter',
    'AttributesToGet',
    'ConditionalOperator',
    'Segment',
    'TotalSegments',
    'RequestItems',
    'TransactItems',
    'ClientRequestToken',
    'StreamSpecification',
    'ProvisionedThroughput',
    'GlobalSecondaryIndexUpdates',
    'ShardIteratorType',
    'SequenceNumber',
    'ExclusiveStartShardId',
    '__proto__',
    'constructor',
    ':c',
    '#c',
  ),
  textArb,
);

const at = fc.nat({ max: 10_000 });
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), at, value: valueArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('add' as const), at, key: keyArb, value: valueArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deepen' as const),
      at,
      depth: fc.oneof(fc.integer({ min: 30, max: 40 }), fc.integer({ min: 1_000, max: 20_000 })),
      shape: fc.constantFrom<DeepShape>('L', 'M', 'array', 'object'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('retype' as const), at }) },
);

const byteArb = fc.oneof(
  fc.constantFrom(0x80, 0xff, 0xc0, 0xc3, 0xed, 0xf4, 0x00, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a),
  fc.integer({ min: 0, max: 255 }),
);
const byteEditArb: fc.Arbitrary<ByteEdit> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at,
    bytes: fc.array(byteArb, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), at, length: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at }),
);

const templateArb = fc.nat({ max: TEMPLATES.length - 1 });

export const fuzzCaseArb: fc.Arbitrary<FuzzCase> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('mutated' as const),
      template: templateArb,
      // Mostly the template's own target; sometimes another operation's.
      target: fc.oneof({ weight: 5, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: templateArb }),
      mutations: fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('bytes' as const),
      template: templateArb,
      edits: fc.array(byteEditArb, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('random' as const),
      template: templateArb,
      body: fc.oneof(
        fc.jsonValue({ maxDepth: 4 }),
        fc.dictionary(keyArb, valueArb, { maxKeys: 6 }),
        fc.uint8Array({ maxLength: 64 }),
      ),
    }),
  },
);

interface Slot {
  readonly parent: Record<string, unknown> | unknown[] | undefined;
  readonly key: string | number;
  readonly value: unknown;
}

/** Every node of a JSON tree (breadth first, at most 2,000), each with where it sits. */
function slots(root: unknown): Slot[] {
  const found: Slot[] = [{ parent: undefined, key: '', value: root }];
  for (let i = 0; i < found.length && found.length < 2_000; i++) {
    const { value } = found[i]!;
    if (Array.isArray(value))
      for (let index = 0; index < value.length; index++)
        found.push({ parent: value, key: index, value: value[index] });
    else if (typeof value === 'object' && value !== null)
      for (const key of Object.keys(value))
        found.push({
          parent: value as Record<string, unknown>,
          key,
          value: (value as Record<string, unknown>)[key],
        });
  }
  return found;
}

/** Sets a member as data, even `__proto__` (plain assignment would change the prototype). */
function put(parent: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `value` wrapped `depth` times, built without recursion. */
function deep(value: unknown, depth: number, shape: DeepShape): unknown {
  let wrapped = value;
  for (let level = 0; level < depth; level++) {
    if (shape === 'L') wrapped = { L: [wrapped] };
    else if (shape === 'M') wrapped = { M: { a: wrapped } };
    else if (shape === 'array') wrapped = [wrapped];
    else wrapped = { a: wrapped };
  }
  return wrapped;
}

function retyped(value: unknown): unknown {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 0;
  if (Array.isArray(value)) return { ...value };
  if (typeof value === 'object' && value !== null) return Object.values(value);
  return {};
}

/** Applies mutations to a copy of a body; returns the new root. */
export function mutate(body: unknown, mutations: readonly Mutation[]): unknown {
  let root: unknown = JSON.parse(JSON.stringify(body));
  for (const mutation of mutations) {
    const all = slots(root);
    const slot = all[mutation.at % all.length]!;
    const replace = (value: unknown) => {
      if (slot.parent === undefined) root = value;
      else put(slot.parent, slot.key, value);
    };
    switch (mutation.kind) {
      case 'replace':
        replace(structuredClone(mutation.value));
        break;
      case 'delete':
        if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
        else if (slot.parent !== undefined) delete slot.parent[slot.key as string];
        break;
      case 'add': {
        const containers = all.filter(
          (candidate) => typeof candidate.value === 'object' && candidate.value !== null,
        );
        const container = containers[mutation.at % containers.length]?.value as
          | Record<string, unknown>
          | unknown[]
          | undefined;
        // A copy: the case's own values must stay as generated (and never become cycles).
        const value = structuredClone(mutation.value);
        if (Array.isArray(container)) container.push(value);
        else if (container !== undefined) put(container, mutation.key, value);
        break;
      }
      case 'deepen':
        replace(deep(slot.value, mutation.depth, mutation.shape));
        break;
      case 'retype':
        replace(retyped(slot.value));
        break;
    }
  }
  return root;
}

/** Applies byte edits to a body's text. */
export function editBytes(text: Buffer, edits: readonly ByteEdit[]): Buffer {
  let bytes = text;
  for (const edit of edits) {
    const at = bytes.length === 0 ? 0 : edit.at % (bytes.length + 1);
    if (edit.kind === 'insert')
      bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(edit.bytes), bytes.subarray(at)]);
    else if (edit.kind === 'remove')
      bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + edit.length)]);
    else bytes = bytes.subarray(0, at);
  }
  return bytes;
}

/** A body as text: canonicalJson never recurses, so 20,000 levels of nesting serialize. */
export function serialize(body: unknown): Buffer {
  return body instanceof Uint8Array ? Buffer.from(body) : Buffer.from(canonicalJson(body));
}
