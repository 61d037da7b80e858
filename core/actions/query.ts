import { ValidationException } from '../errors/index.js';
import { keyConditionsToParts } from '../expressions/index.js';
import { compositeKeyOf, isComposite } from '../indexes/compositeKey.js';
import { type AttributeMap, getAttribute } from '../model/attributeValue.js';
import { encodeKeyValue } from '../model/keyCodec.js';
import { defineOperation } from '../operation.js';
import type { IndexEntry } from '../store/indexEntry.js';
import type { Partition } from '../store/itemStore.js';
import type { KeyDefinition, KeyShape } from '../store/table.js';
import { type QueryInput, queryShape, validateQuery } from '../validations/query.js';
import type { PreparedReadRequest } from '../validations/readRequest.js';
import {
  type CompositeKeyRange,
  checkCompositeStartKey,
  planCompositeKeyRange,
} from './shared/compositeKeyConditions.js';
import { inRange, type KeyRange, planKeyRange, satisfiesRange } from './shared/keyConditions.js';
import { checkKeyPathsAreScalar } from './shared/keyPaths.js';
import { answerPage, type PageEntry } from './shared/readPage.js';
import {
  checkProjectionSupport,
  checkSelectAllOnGlobalIndex,
  checkStartKeyCount,
  checkStartKeyPiece,
  checkStartKeyTablePart,
  pageEntry,
  type ReadTarget,
  resolveReadTarget,
} from './shared/readTarget.js';

/**
 * Query: one partition of the table or of an index, in sort-key order (or reversed),
 * O(log n + k) for k evaluated items.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html
 */
export const query = defineOperation({
  name: 'Query',
  shape: queryShape,
  validate: validateQuery,
  execute(context, input: QueryInput, prepared: PreparedReadRequest) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    const target = resolveReadTarget(table, input.IndexName, input.ConsistentRead);
    const startKey = input.ExclusiveStartKey;
    if (startKey) checkStartKeyCount(target, startKey);
    const keyConditions = prepared.keyConditions ?? keyConditionsToParts(input.KeyConditions!);
    const beforeAttribute = startKey
      ? (definition: KeyDefinition, isHash: boolean) => checkStartKeyPiece(startKey, definition, isHash)
      : undefined;
    // A multi-attribute GSI key plans its own conditions (docs/multi-attribute-keys.md).
    const composite = target.index === undefined ? undefined : compositeKeyOf(target.index, table);
    const range = composite
      ? planCompositeKeyRange(keyConditions, composite, beforeAttribute)
      : planKeyRange(keyConditions, target.key, beforeAttribute);
    let after: string | undefined;
    if (startKey) {
      checkStartKeyTablePart(target, startKey);
      if (composite) checkCompositeStartKey(startKey, composite, range as CompositeKeyRange);
      after = composite ? target.positionOf(startKey).rangeKey : startPosition(target, startKey, range);
    }
    const { fetchFromTable } = checkQueryPaths(target, prepared);

    const partition = target.store.partition(range.hashKey);
    const forward = input.ScanIndexForward !== false;
    return answerPage(
      target,
      input,
      prepared,
      partitionEntries(target, partition, range, forward, after, fetchFromTable),
      { governor: context.engine.capacity, hashKey: range.hashKey },
    );
  },
});

/**
 * Where a Query resumes (docs/dynamodb.md §6.2.5, recorded in dynalite's tests): without a sort-key
 * condition the start key must lie in the queried partition; with one, it must first satisfy the
 * condition, and a start key of another partition then reads `The query can return at most one row
 * and cannot be restarted`.
 */
function startPosition(target: ReadTarget, startKey: AttributeMap, range: KeyRange): string {
  const key: KeyShape = target.key;
  const hashValue = (getAttribute(startKey, key.hash.name) as Record<string, string>)[key.hash.type]!;
  const samePartition = encodeKeyValue(key.hash.type, hashValue) === range.hashKey;
  if (range.range === undefined || key.range === undefined) {
    if (!samePartition) {
      throw new ValidationException(
        'The provided starting key is outside query boundaries based on provided conditions',
      );
    }
  } else {
    if (!satisfiesRange(range.range, getAttribute(startKey, key.range.name)!)) {
      throw new ValidationException('The provided starting key does not match the range key predicate');
    }
    if (!samePartition)
      throw new ValidationException('The query can return at most one row and cannot be restarted');
  }
  return target.positionOf(startKey).rangeKey;
}

/**
 * The path checks of a Query after its key condition, in the service's order (recorded in
 * dynalite's tests, docs/dynamodb.md §6.1.4, §8.3): a projection inside a key attribute, a filter
 * naming a queried key attribute, Select ALL_ATTRIBUTES on a GSI, a filter inside a key
 * attribute, then attributes the index does not project.
 */
function checkQueryPaths(target: ReadTarget, prepared: PreparedReadRequest): { fetchFromTable: boolean } {
  const projectionPaths = prepared.projection?.paths;
  if (projectionPaths) checkKeyPathsAreScalar(projectionPaths, target.table);
  if (prepared.filter !== undefined) {
    const keyNames = isCompositeTarget(target)
      ? target.index!.keySchema.map((element) => element.AttributeName)
      : [target.key.hash.name, target.key.range?.name];
    for (const name of keyNames) {
      if (name === undefined) continue;
      if (prepared.filter.paths.some((path) => path[0] === name)) {
        const source = prepared.filterKind === 'QueryFilter' ? 'QueryFilter' : 'Filter Expression';
        throw new ValidationException(
          `${source} can only contain non-primary key attributes: Primary key attribute: ${name}`,
        );
      }
    }
  }
  checkSelectAllOnGlobalIndex(target, prepared.select);
  if (prepared.filter !== undefined) checkKeyPathsAreScalar(prepared.filter.paths, target.table);
  return checkProjectionSupport(
    target,
    prepared.select,
    projectionPaths?.map((path) => path[0]),
  );
}

function isCompositeTarget(target: ReadTarget): boolean {
  return target.index !== undefined && isComposite(target.index);
}

function pastUpper(range: KeyRange, value: string): boolean {
  if (range.prefix !== undefined) return value > range.prefix && !value.startsWith(range.prefix);
  return (
    range.upper !== undefined &&
    (value > range.upper.key || (!range.upper.inclusive && value === range.upper.key))
  );
}

function beforeLower(range: KeyRange, value: string): boolean {
  if (range.prefix !== undefined) return value < range.prefix;
  return (
    range.lower !== undefined &&
    (value < range.lower.key || (!range.lower.inclusive && value === range.lower.key))
  );
}

/** The partition's entries within the range, forward or reversed, strictly after `after` (PartiQL SELECTs read through it too). */
export function* partitionEntries(
  target: ReadTarget,
  partition: Partition<IndexEntry> | undefined,
  range: KeyRange,
  forward: boolean,
  after: string | undefined,
  fetchFromTable: boolean,
): Generator<PageEntry> {
  if (partition === undefined) return;
  const entry = (rangeKey: string, stored: IndexEntry) =>
    pageEntry(target, partition.hashKey, rangeKey, stored, fetchFromTable);
  if (!partition.items) {
    if (partition.single && after === undefined) yield entry('', partition.single);
    return;
  }
  if (forward) {
    let start =
      range.prefix !== undefined
        ? target.lowerStart(range.prefix)
        : range.lower
          ? target.lowerStart(range.lower.key)
          : undefined;
    if (after !== undefined && (start === undefined || after >= start)) start = after;
    for (const [rangeKey, stored] of partition.items.entries(start)) {
      if (rangeKey === after) continue;
      const value = target.sortValueOf(rangeKey);
      if (pastUpper(range, value)) return;
      if (!inRange(range, value)) continue;
      yield entry(rangeKey, stored);
    }
  } else {
    let start: string | undefined;
    if (range.prefix !== undefined) {
      const successor = prefixSuccessor(range.prefix);
      start = successor === undefined ? undefined : target.lowerStart(successor);
    } else if (range.upper) {
      start = target.upperStart(range.upper.key);
    }
    if (after !== undefined && (start === undefined || after <= start)) start = after;
    for (const [rangeKey, stored] of partition.items.entriesReversed(start)) {
      if (rangeKey === after) continue;
      const value = target.sortValueOf(rangeKey);
      if (beforeLower(range, value)) return;
      if (!inRange(range, value)) continue;
      yield entry(rangeKey, stored);
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
