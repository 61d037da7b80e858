import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../core/changeEvent.js';
import { Engine } from '../../../core/engine.js';
import { fillEntries, GlobalIndexApplier } from '../../../core/indexes/globalIndexApplier.js';
import { GlobalIndexWriter } from '../../../core/indexes/globalIndexWriter.js';
import { putEntry } from '../../../core/indexes/maintenance.js';
import { projectItem } from '../../../core/indexes/projection.js';
import { ImageFields, numberSizeAt, StoredRow } from '../../../core/indexes/storedImage.js';
import type { AttributeMap, AttributeValue } from '../../../core/model/attributeValue.js';
import { attributeValueSize, itemSize } from '../../../core/model/itemSize.js';
import { encodeKeyValue } from '../../../core/model/keyCodec.js';
import { normaliseNumber, numberSize } from '../../../core/model/number.js';
import { entryItem, ProjectedEntry } from '../../../core/store/indexEntry.js';
import { StoredItem } from '../../../core/store/storedItem.js';
import type { SecondaryIndex, Table } from '../../../core/store/table.js';
import { recordHandler } from '../../../functions/gsi-maintainer/handler.js';
import { recordOf } from '../../helpers/events.js';

/**
 * The gsi-maintainer's internal path (`GlobalIndexWriter.applyFeedChange` → `GlobalIndexApplier`,
 * reading stored texts) must leave every index exactly as the Lambda-record path leaves it
 * (`recordHandler` on eagerly decoded records → `planIndexChange` → `put`/`remove`), and as a
 * synchronous engine keeps it: same entries, same keys, same stored texts and sizes.
 */

/** Names that are awkward in JSON text: quotes, backslashes, a prototype name, digits, accents. */
const tricky = ['x', 'y"q', 'z\\w', '__proto__', '10', 'é', 'x":{"S":"'];
const name = fc.constantFrom(...tricky);
const text = fc.oneof(
  fc.constantFrom('', 'a', 'Galaxy Invaders', 'quo"te', 'back\\slash', 'ünï', '\u{1F600}', 'tab\there', '"}'),
  fc.string({ maxLength: 6 }),
);
const number = fc.constantFrom('0', '1', '-1', '1.5', '100', '-0.001', '1e10', '12345678901234567890');
const binary = fc.constantFrom('AA==', 'AQID', 'zz8=', '');
const value: fc.Arbitrary<AttributeValue> = fc.letrec<{ value: AttributeValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text.map((S) => ({ S })),
    number.map((N) => ({ N })),
    binary.filter((B) => B !== '').map((B) => ({ B })),
    fc.boolean().map((BOOL) => ({ BOOL })),
    fc.constant({ NULL: true as const }),
    fc
      .uniqueArray(fc.constantFrom('b', 'a', 'c"', 'é'), { minLength: 1, maxLength: 3 })
      .map((SS) => ({ SS })),
    fc
      .uniqueArray(fc.constantFrom('3', '1', '-2', '10'), { minLength: 1, maxLength: 3 })
      .map((NS) => ({ NS })),
    fc.array(tie('value'), { maxLength: 2 }).map((L) => ({ L })),
    fc.dictionary(name, tie('value'), { maxKeys: 2 }).map((M) => ({ M })),
  ),
})).value;

/** A key attribute's value: usually of the declared type, sometimes another type, or absent. */
function keyValue(type: 'S' | 'N' | 'B'): fc.Arbitrary<AttributeValue | undefined> {
  const typed =
    type === 'S'
      ? fc.constantFrom('g1', 'g2', 'Galaxy Invaders', 'q"uote', 'é').map((S) => ({ S }))
      : type === 'N'
        ? fc.constantFrom('1', '2', '-3.5', '1e3', '0').map((N) => ({ N }))
        : fc.constantFrom('AA==', 'AQ==', 'AgM=').map((B) => ({ B }));
  return fc.oneof(
    { weight: 6, arbitrary: typed },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: value,
    },
  );
}

interface Schema {
  tableRange: 'S' | 'N' | undefined;
  indexes: {
    hash: 'ga' | 'gn' | 'gb';
    range: 'ga' | 'gn' | 'gb' | undefined;
    projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
    include: string[];
  }[];
}

const TYPES = { ga: 'S', gn: 'N', gb: 'B' } as const;

const schema: fc.Arbitrary<Schema> = fc.record({
  tableRange: fc.constantFrom('S' as const, 'N' as const, undefined),
  indexes: fc.array(
    fc
      .record({
        hash: fc.constantFrom('ga' as const, 'gn' as const, 'gb' as const),
        range: fc.constantFrom('ga' as const, 'gn' as const, 'gb' as const, undefined),
        projection: fc.constantFrom('ALL' as const, 'KEYS_ONLY' as const, 'INCLUDE' as const),
        include: fc.uniqueArray(name, { minLength: 1, maxLength: 3 }),
      })
      .filter((index) => index.range !== index.hash),
    { minLength: 1, maxLength: 3 },
  ),
});

function createTable(engine: Engine, spec: Schema): void {
  const definitions = [
    { AttributeName: 'pk', AttributeType: 'S' },
    ...(spec.tableRange ? [{ AttributeName: 'sk', AttributeType: spec.tableRange }] : []),
    ...(['ga', 'gn', 'gb'] as const).map((attribute) => ({
      AttributeName: attribute,
      AttributeType: TYPES[attribute],
    })),
  ];
  engine.execute('CreateTable', {
    TableName: 'Tbl',
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: definitions.filter(
      (definition) =>
        ['pk', 'sk'].includes(definition.AttributeName) ||
        spec.indexes.some((index) => [index.hash, index.range].includes(definition.AttributeName as never)),
    ),
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      ...(spec.tableRange ? [{ AttributeName: 'sk', KeyType: 'RANGE' }] : []),
    ],
    GlobalSecondaryIndexes: spec.indexes.map((index, i) => ({
      IndexName: `index${i}`,
      KeySchema: [
        { AttributeName: index.hash, KeyType: 'HASH' },
        ...(index.range ? [{ AttributeName: index.range, KeyType: 'RANGE' }] : []),
      ],
      Projection:
        index.projection === 'INCLUDE'
          ? { ProjectionType: 'INCLUDE', NonKeyAttributes: index.include }
          : { ProjectionType: index.projection },
    })),
  });
}

type Operation =
  | { kind: 'put'; key: number; attributes: Record<string, AttributeValue | undefined> }
  | { kind: 'set'; key: number; name: string; value: AttributeValue }
  | { kind: 'remove'; key: number; name: string }
  | { kind: 'delete'; key: number };

const attributes = fc.record({
  ga: keyValue('S'),
  gn: keyValue('N'),
  gb: keyValue('B'),
  x: fc.option(value, { nil: undefined }),
  'y"q': fc.option(value, { nil: undefined }),
  'z\\w': fc.option(value, { nil: undefined }),
  __proto__: fc.option(value, { nil: undefined }),
  '10': fc.option(value, { nil: undefined }),
  é: fc.option(value, { nil: undefined }),
});
const key = fc.integer({ min: 0, max: 5 });
const anyName = fc.constantFrom('ga', 'gn', 'gb', ...tricky);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), key, attributes }),
  fc.record({
    kind: fc.constant('set' as const),
    key,
    name: anyName,
    value: fc.oneof(keyValue('S'), keyValue('N'), value).filter((v) => v !== undefined),
  }) as fc.Arbitrary<Operation>,
  fc.record({ kind: fc.constant('remove' as const), key, name: anyName }),
  fc.record({ kind: fc.constant('delete' as const), key }),
);

function keyOf(spec: Schema, key: number): AttributeMap {
  const Key: AttributeMap = { pk: { S: `p${key % 3}` } };
  if (spec.tableRange === 'S') Key.sk = { S: `s${key}` };
  if (spec.tableRange === 'N') Key.sk = { N: String(key) };
  return Key;
}

/** Runs one operation; the engine refuses some (wrong index key types, empty keys): ignored. */
function run(engine: Engine, spec: Schema, op: Operation): void {
  const Key = keyOf(spec, op.key);
  try {
    switch (op.kind) {
      case 'put': {
        const Item: AttributeMap = { ...Key };
        for (const [attribute, attributeValue] of Object.entries(op.attributes))
          if (attributeValue !== undefined)
            Object.defineProperty(Item, attribute, { value: attributeValue, enumerable: true });
        engine.execute('PutItem', { TableName: 'Tbl', Item });
        break;
      }
      case 'set':
        engine.execute('UpdateItem', {
          TableName: 'Tbl',
          Key,
          UpdateExpression: 'SET #a = :v',
          ExpressionAttributeNames: { '#a': op.name },
          ExpressionAttributeValues: { ':v': op.value },
        });
        break;
      case 'remove':
        engine.execute('UpdateItem', {
          TableName: 'Tbl',
          Key,
          UpdateExpression: 'REMOVE #a',
          ExpressionAttributeNames: { '#a': op.name },
        });
        break;
      case 'delete':
        engine.execute('DeleteItem', { TableName: 'Tbl', Key });
        break;
    }
  } catch (error) {
    if ((error as Error).name !== 'ValidationException') throw error;
  }
}

/** Every entry of every GSI: partition key, sort key, stored text and size; and the totals. */
function indexContents(engine: Engine) {
  const table = engine.region().tables.get('Tbl')!;
  return [...table.globalSecondaryIndexes.values()].map((index) => ({
    name: index.name,
    size: index.items.size,
    bytes: index.items.bytes,
    entries: entriesOf(index),
  }));
}

/** Three engines fed the same writes: the internal path, the Lambda-record path, synchronous. */
function engines(spec: Schema) {
  const internal = new Engine({ globalIndexes: 'external' });
  const lambda = new Engine({ globalIndexes: 'external' });
  const oracle = new Engine();
  for (const engine of [internal, lambda, oracle]) createTable(engine, spec);
  const internalWriter = new GlobalIndexWriter(internal);
  const lambdaWriter = new GlobalIndexWriter(lambda);
  internal.onCommit((event) => internalWriter.applyFeedChange(event));
  lambda.onCommit((event) => recordHandler(recordOf(event), lambdaWriter));
  return { internal, lambda, oracle };
}

describe('GlobalIndexApplier (the internal path of the gsi-maintainer)', () => {
  it('leaves every GSI as the Lambda-record path and a synchronous engine do, after any writes', () => {
    fc.assert(
      fc.property(schema, fc.array(operation, { maxLength: 30 }), (spec, operations) => {
        const { internal, lambda, oracle } = engines(spec);
        for (const op of operations) for (const engine of [internal, lambda, oracle]) run(engine, spec, op);
        const expected = indexContents(oracle);
        expect(indexContents(lambda)).toEqual(expected);
        expect(indexContents(internal)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("rewrites an item's own entry when other items share its index key and sort value", () => {
    // Three items under one index key (and one sort value): an update that changes a projected
    // attribute must rewrite the entry of the item it changed, whichever entry sorts first.
    const spec: Schema = {
      tableRange: 'N',
      indexes: [
        { hash: 'ga', range: undefined, projection: 'ALL', include: [] },
        { hash: 'ga', range: 'gn', projection: 'INCLUDE', include: ['x'] },
        { hash: 'ga', range: 'gn', projection: 'KEYS_ONLY', include: [] },
      ],
    };
    const { internal, oracle } = engines(spec);
    const operations: Operation[] = [];
    for (const key of [0, 1, 2])
      operations.push({ kind: 'put', key, attributes: { ga: { S: 'g' }, gn: { N: '1' }, x: { S: 'a' } } });
    for (const [key, x] of [
      [2, 'b'],
      [0, 'c'],
      [1, 'd'],
      [2, 'e'],
    ] as const)
      operations.push({ kind: 'set', key, name: 'x', value: { S: x } });
    // An entry left as it was by a change of an attribute it does not project, then updated.
    operations.push({ kind: 'set', key: 1, name: 'é', value: { S: 'other' } });
    operations.push({ kind: 'set', key: 1, name: 'x', value: { S: 'f' } });
    for (const op of operations) for (const engine of [internal, oracle]) run(engine, spec, op);
    const contents = indexContents(internal);
    expect(contents).toEqual(indexContents(oracle));
    expect(contents.map((index) => index.size)).toEqual([3, 3, 3]);
  });

  it('ignores changes of a table that was deleted, or replaced by one of the same name', () => {
    const engine = new Engine({ globalIndexes: 'external' });
    const spec: Schema = {
      tableRange: undefined,
      indexes: [{ hash: 'ga', range: undefined, projection: 'ALL', include: [] }],
    };
    createTable(engine, spec);
    const events: ChangeEvent[] = [];
    engine.onCommit((event) => events.push(event));
    run(engine, spec, { kind: 'put', key: 1, attributes: { ga: { S: 'g' } } });
    engine.execute('DeleteTable', { TableName: 'Tbl' });
    createTable(engine, spec);
    const writer = new GlobalIndexWriter(engine);
    for (const event of events) writer.applyFeedChange(event);
    expect(indexContents(engine)[0]!.size).toBe(0);
  });
});

describe('fillEntries (backfill)', () => {
  it('puts the entries putEntry puts from the decoded items', () => {
    fc.assert(
      fc.property(schema, fc.array(operation, { maxLength: 30 }), (spec, operations) => {
        const engine = new Engine();
        createTable(engine, spec);
        for (const op of operations) run(engine, spec, op);
        const table = engine.region().tables.get('Tbl')!;
        const items = [...table.items.unordered()].map(({ item }) => item);
        for (const index of table.globalSecondaryIndexes.values()) {
          const expected = entriesOf(index);
          index.items.clear();
          fillEntries(table, index, items, 0, 1);
          fillEntries(table, index, items, 1);
          expect(entriesOf(index)).toEqual(expected);
          index.items.clear();
          for (const item of items) putEntry(table, index, item.decode(), item);
          expect(entriesOf(index)).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a local secondary index (its entries are keyed differently)', () => {
    const table = { key: { hash: { name: 'pk', type: 'S' } } } as unknown as Table;
    const lsi = { name: 'l', kind: 'LSI', keySchema: [] } as unknown as SecondaryIndex;
    expect(() => new GlobalIndexApplier(table, [lsi])).toThrow('is not a GSI');
  });
});

/** An index's entries (partition key, sort key, stored text as read, size), in key order. */
function entriesOf(index: SecondaryIndex) {
  return [...index.items.unordered()]
    .map(({ partition, rangeKey, item }) => [partition.hashKey, rangeKey, entryItem(item).json, item.size])
    .sort((a, b) => (`${a[0]}\u0001${a[1]}` < `${b[0]}\u0001${b[1]}` ? -1 : 1));
}

const item = fc.dictionary(fc.oneof(name, fc.string({ minLength: 1, maxLength: 4 })), value, {
  minKeys: 1,
  maxKeys: 6,
});

describe('StoredRow (attributes read from stored text)', () => {
  it('finds each asked-for attribute as decoding the item does: value, text and size', () => {
    fc.assert(
      fc.property(
        item,
        fc.array(fc.oneof(name, fc.string({ maxLength: 4 })), { maxLength: 5 }),
        (candidate, asked) => {
          const stored = StoredItem.fromItem(candidate);
          const decoded = stored.decode();
          const fields = new ImageFields(asked);
          const row = new StoredRow(fields).read(stored.json);
          fields.names.forEach((field, number) => {
            const expected = Object.hasOwn(decoded, field) ? decoded[field] : undefined;
            expect(row.has(number)).toBe(expected !== undefined);
            if (expected === undefined) return;
            expect(row.value(number)).toEqual(expected);
            expect(row.memberText(number)).toBe(`${JSON.stringify(field)}:${JSON.stringify(expected)}`);
            expect(row.valueSize(number)).toBe(attributeValueSize(expected));
          });
          // Found fields come in text (canonical) order.
          const order = row.order.slice(0, row.count).map((number) => fields.names[number]!);
          expect(order).toEqual(Object.keys(decoded).filter((field) => fields.names.includes(field)));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads a row again from scratch for the next item', () => {
    const fields = new ImageFields(['a', 'b']);
    const row = new StoredRow(fields);
    row.read(StoredItem.fromItem({ a: { S: 'one' }, b: { N: '2' } }).json);
    row.read(StoredItem.fromItem({ b: { S: 'three' } }).json);
    expect(row.has(0)).toBe(false);
    expect(row.value(1)).toEqual({ S: 'three' });
  });
});

describe('projected entries cut from stored text', () => {
  it('read as the encoded projection of the current item (text and size) for INCLUDE and KEYS_ONLY', () => {
    fc.assert(
      fc.property(schema, fc.array(operation, { maxLength: 20 }), (spec, operations) => {
        const { internal } = engines(spec);
        for (const op of operations) run(internal, spec, op);
        const table = internal.region().tables.get('Tbl')!;
        for (const index of table.globalSecondaryIndexes.values()) {
          if (index.projection.ProjectionType === 'ALL') continue;
          for (const { item: entry } of index.items.unordered()) {
            // The applier keeps a reference to the item's text, possibly one an update that left
            // every projected attribute alone has since replaced: it must read as the current item.
            expect(entry).toBeInstanceOf(ProjectedEntry);
            const source = (entry as ProjectedEntry).source.decode();
            const part = ({ name, type }: { name: string; type: 'S' | 'N' | 'B' }) =>
              encodeKeyValue(type, (source[name] as Record<string, string>)[type]!);
            const current = table.items.get(
              part(table.key.hash),
              table.key.range ? part(table.key.range) : '',
            )!;
            const expected = StoredItem.fromItem(projectItem(index, table, current.decode()));
            const read = entryItem(entry);
            expect([read.json, read.size]).toEqual([expected.json, itemSize(expected.decode())]);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('keeps an entry an update of unprojected attributes leaves alone, and reads it as before', () => {
    const spec: Schema = {
      tableRange: undefined,
      indexes: [{ hash: 'ga', range: undefined, projection: 'INCLUDE', include: ['x'] }],
    };
    const { internal } = engines(spec);
    run(internal, spec, {
      kind: 'put',
      key: 1,
      attributes: { ga: { S: 'g' }, x: { N: '1' }, y: { S: 'a' } },
    });
    const index = internal.region().tables.get('Tbl')!.globalSecondaryIndexes.get('index0')!;
    const [written] = [...index.items.unordered()];
    run(internal, spec, { kind: 'set', key: 1, name: 'y', value: { S: 'b' } });
    const [after] = [...index.items.unordered()];
    // No index write (the service bills none either): the entry still refers to the first text.
    expect(after!.item).toBe(written!.item);
    expect(JSON.parse(entryItem(after!.item).json)).toEqual({
      ga: { S: 'g' },
      pk: { S: 'p1' },
      x: { N: '1' },
    });
  });
});

describe('numberSizeAt', () => {
  it('measures a number in place as numberSize does', () => {
    const numeric = fc.oneof(
      fc.integer().map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc
        .tuple(fc.stringMatching(/^-?\d{1,20}(\.\d{1,20})?$/), fc.integer({ min: -60, max: 60 }))
        .map(([digits, exponent]) => `${digits}e${exponent}`),
    );
    fc.assert(
      fc.property(numeric, (candidate) => {
        const normalised = normaliseNumber(candidate);
        if (!normalised.ok) return;
        const text = `{"N":"${normalised.value}"}`;
        expect(numberSizeAt(text, 6, text.length - 2)).toBe(numberSize(normalised.value));
      }),
      { numRuns: 5_000 },
    );
  });
});
