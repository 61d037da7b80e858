import { ValidationException } from '../errors/index.js';
import { type AttributeMap, getAttribute } from '../model/attributeValue.js';
import { decodeKeyValue, encodeKeyValue } from '../model/keyCodec.js';
import { defineOperation } from '../operation.js';
import type { Partition } from '../store/itemStore.js';
import type { StoredItem } from '../store/storedItem.js';
import type { KeyShape, Table } from '../store/table.js';
import { type QueryInput, queryShape, validateQuery } from '../validations/query.js';
import type { PreparedReadRequest } from '../validations/readRequest.js';
import { inRange, type KeyRange, planKeyRange, satisfiesRange } from './shared/keyConditions.js';
import { checkKeyPathsAreScalar } from './shared/keyPaths.js';
import { pageCapacity, pageOutput, readPage } from './shared/readPage.js';
import { withOptional } from './shared/writeSupport.js';

/**
 * Query: one partition, in sort-key order (or reversed), O(log n + k) for k evaluated items.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html
 */
export const query = defineOperation({
  name: 'Query',
  shape: queryShape,
  validate: validateQuery,
  execute(context, input: QueryInput, prepared: PreparedReadRequest) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    if (input.IndexName !== undefined) {
      // Index reads arrive with the GSI issue; until then no index can be queried.
      throw new ValidationException(`The table does not have the specified index: ${input.IndexName}`);
    }
    const startKey = input.ExclusiveStartKey
      ? checkQueryStartKey(input.ExclusiveStartKey, table.key)
      : undefined;
    const range = planKeyRange(prepared.keyConditions!, table.key);
    if (startKey) checkStartKeyPosition(startKey, range, table.key);
    checkFilterAttributes(prepared, table);
    if (prepared.projection) checkKeyPathsAreScalar(prepared.projection.paths, table);

    const partition = table.items.partition(range.hashKey);
    const forward = input.ScanIndexForward !== false;
    const after = startKey
      ? encodeKeyValue(table.key.range?.type ?? 'S', rangeScalar(startKey, table.key))
      : undefined;
    const countOnly = prepared.select === 'COUNT';
    const page = readPage(partitionEntries(partition, range, forward, after, table), {
      limit: input.Limit,
      filter: prepared.filter,
      projection: prepared.projection,
      countOnly,
    });
    const output = pageOutput(page, countOnly);
    return withOptional(
      output,
      'ConsumedCapacity',
      pageCapacity(input.ReturnConsumedCapacity, table.name, page.bytesRead, input.ConsistentRead === true),
    );
  },
});

function rangeScalar(startKey: AttributeMap, key: KeyShape): string {
  if (!key.range) return '';
  return (getAttribute(startKey, key.range.name) as Record<string, string>)[key.range.type]!;
}

/** ExclusiveStartKey must hold exactly the key attributes, correctly typed (spec §6.2.5). */
function checkQueryStartKey(startKey: AttributeMap, key: KeyShape): AttributeMap {
  const names = Object.keys(startKey);
  const expected = [key.hash, key.range].filter((definition) => definition !== undefined);
  if (names.length !== expected.length) throw new ValidationException('The provided starting key is invalid');
  for (const definition of expected) {
    const value = getAttribute(startKey, definition.name);
    if (value === undefined) throw new ValidationException('The provided starting key is invalid');
    if (!(definition.type in value))
      throw new ValidationException('The provided key element does not match the schema');
  }
  return startKey;
}

function checkStartKeyPosition(startKey: AttributeMap, range: KeyRange, key: KeyShape): void {
  const hashValue = (getAttribute(startKey, key.hash.name) as Record<string, string>)[key.hash.type]!;
  if (encodeKeyValue(key.hash.type, hashValue) !== range.hashKey) {
    throw new ValidationException(
      'The provided starting key is outside query boundaries based on provided conditions',
    );
  }
  if (key.range === undefined || range.range?.operator === '=') {
    throw new ValidationException('The query can return at most one row and cannot be restarted');
  }
  if (range.range && !satisfiesRange(range.range, getAttribute(startKey, key.range.name)!)) {
    throw new ValidationException('The provided starting key does not match the range key predicate');
  }
}

/** Filters may not name the queried key attributes (spec §6.1.4). */
function checkFilterAttributes(prepared: PreparedReadRequest, table: Table): void {
  if (prepared.filter === undefined) return;
  checkKeyPathsAreScalar(prepared.filter.paths, table);
  const keyNames = [table.key.hash.name, table.key.range?.name];
  for (const path of prepared.filter.paths) {
    if (keyNames.includes(path[0])) {
      const source = prepared.filterKind === 'QueryFilter' ? 'QueryFilter' : 'Filter Expression';
      throw new ValidationException(
        `${source} can only contain non-primary key attributes: Primary key attribute: ${path[0]}`,
      );
    }
  }
}

/** The partition's items within the range, forward or reversed, strictly after `after`. */
function* partitionEntries(
  partition: Partition | undefined,
  range: KeyRange,
  forward: boolean,
  after: string | undefined,
  table: Table,
): Generator<{ item: StoredItem; key: () => AttributeMap }> {
  if (partition === undefined) return;
  const keyOf = (rangeKey: string) => () => tableKeyOf(table, partition.hashKey, rangeKey);
  if (!partition.items) {
    if (partition.single && after === undefined) yield { item: partition.single, key: keyOf('') };
    return;
  }
  if (forward) {
    let start = range.lower?.key;
    if (after !== undefined && (start === undefined || after >= start)) start = after;
    for (const [rangeKey, item] of partition.items.entries(start)) {
      if (rangeKey === after) continue;
      if (range.lower && !range.lower.inclusive && rangeKey === range.lower.key) continue;
      if (!inRange(range, rangeKey)) {
        if (
          range.upper &&
          (rangeKey > range.upper.key || (!range.upper.inclusive && rangeKey === range.upper.key))
        )
          return;
        if (range.prefix !== undefined && rangeKey > range.prefix) return;
        continue;
      }
      yield { item, key: keyOf(rangeKey) };
    }
  } else {
    let start = range.upper?.key;
    if (range.prefix !== undefined) start = prefixSuccessor(range.prefix);
    if (after !== undefined && (start === undefined || after <= start)) start = after;
    for (const [rangeKey, item] of partition.items.entriesReversed(start)) {
      if (rangeKey === after) continue;
      if (!inRange(range, rangeKey)) {
        if (range.lower && rangeKey < range.lower.key) return;
        if (range.prefix !== undefined && rangeKey < range.prefix) return;
        continue;
      }
      yield { item, key: keyOf(rangeKey) };
    }
  }
}

/** The smallest string greater than every string that starts with `prefix` (undefined: none). */
function prefixSuccessor(prefix: string): string | undefined {
  for (let end = prefix.length - 1; end >= 0; end--) {
    const unit = prefix.charCodeAt(end);
    if (unit < 0xffff) return prefix.slice(0, end) + String.fromCharCode(unit + 1);
  }
  return undefined;
}

/** The table key of an item, rebuilt from its encoded key parts (LastEvaluatedKey). */
export function tableKeyOf(table: Table, hashKey: string, rangeKey: string): AttributeMap {
  const key: AttributeMap = Object.create(null);
  key[table.key.hash.name] = { [table.key.hash.type]: decodeKeyValue(table.key.hash.type, hashKey) } as never;
  if (table.key.range) {
    key[table.key.range.name] = {
      [table.key.range.type]: decodeKeyValue(table.key.range.type, rangeKey),
    } as never;
  }
  return key;
}
