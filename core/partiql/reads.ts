import { partitionEntries } from '../actions/query.js';
import { planKeyRange } from '../actions/shared/keyConditions.js';
import { checkKeyPathsAreScalar } from '../actions/shared/keyPaths.js';
import { type PageEntry, pageCapacity, pageUnits, readPage } from '../actions/shared/readPage.js';
import {
  checkReadProjection,
  checkStartKeyCount,
  checkStartKeyPiece,
  pageEntry,
  type ReadTarget,
} from '../actions/shared/readTarget.js';
import { withOptional } from '../actions/shared/writeSupport.js';
import { consumedCapacity, type ReturnConsumedCapacity, readUnits } from '../capacity.js';
import type { Engine } from '../engine.js';
import { ValidationException } from '../errors/index.js';
import type { AttributeMap, Item } from '../model/attributeValue.js';
import type { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import { encodeKey } from '../validations/keys.js';
import { PartiqlMessages } from './errors.js';
import { decodeNextToken, encodeNextToken, type PagePosition } from './nextToken.js';
import type { SelectPlan } from './selectPlan.js';

/**
 * Runs a planned SELECT over the engine's stores with the Query and Scan machinery
 * (`core/actions/shared/readPage.ts`): `Limit` counts the items evaluated, a page ends once 1 MB has
 * been evaluated, and what was evaluated is what the read costs (docs/partiql.md §4.1).
 */
export interface SelectRun {
  readonly engine: Engine;
  readonly target: ReadTarget;
  readonly plan: SelectPlan & { kind: 'query' | 'scan' };
  readonly consistentRead: boolean;
  readonly limit: number | undefined;
  readonly nextToken: string | undefined;
  readonly returnConsumedCapacity: ReturnConsumedCapacity | undefined;
  /** Ties NextToken to the statement and its parameters (`nextToken.ts`). */
  readonly requestHash: () => string;
}

export function runSelect(run: SelectRun): Record<string, unknown> {
  const { plan, target } = run;
  if (plan.filter) checkKeyPathsAreScalar(plan.filter.paths, target.table);
  const { fetchFromTable } = checkReadProjection(target, { projection: plan.projection, select: undefined });
  const now = run.engine.clock.now();
  const start =
    run.nextToken === undefined ? undefined : decodeNextToken(run.nextToken, run.requestHash(), now);
  if (start !== undefined) checkTokenKey(target, start.key);
  const reading = { partition: 0 };
  const entries =
    plan.kind === 'query'
      ? queryEntries(target, plan, start, fetchFromTable, reading)
      : scanEntries(target, start, fetchFromTable);
  const page = readPage(entries, {
    limit: run.limit,
    filter: plan.filter,
    projection: plan.projection,
    countOnly: false,
  });
  // Charged once its size is known, as Query and Scan charge a page (docs/capacity.md §5): a
  // throttled page answers the exception. A query of one partition is that partition's read; one
  // over several (`IN` on the partition key) is charged to the table, as a Scan is.
  if (run.engine.capacity.active)
    run.engine.capacity.read(target.table, {
      units: pageUnits(page.bytesRead, run.consistentRead),
      index: target.index,
      hashKey: plan.kind === 'query' ? onePartition(target, plan) : undefined,
    });
  const output: Record<string, unknown> = { Items: page.items };
  if (page.lastEvaluatedKey !== undefined) {
    const position: PagePosition = { partition: reading.partition, key: page.lastEvaluatedKey };
    output.NextToken = encodeNextToken(run.requestHash(), now, position);
    output.LastEvaluatedKey = page.lastEvaluatedKey;
  }
  const { index } = target;
  return withOptional(
    output,
    'ConsumedCapacity',
    pageCapacity(
      run.returnConsumedCapacity,
      target.table.name,
      page.bytesRead,
      run.consistentRead,
      index ? { name: index.name, kind: index.kind } : undefined,
      page.bytesFetched,
    ),
  );
}

/** The key a NextToken resumes after must fit the target's keys; any fault is `Invalid NextToken`. */
function checkTokenKey(target: ReadTarget, key: AttributeMap): void {
  try {
    checkStartKeyCount(target, key);
    const hashes = new Set([target.key.hash.name, target.table.key.hash.name]);
    for (const definition of target.startKeyAttributes)
      checkStartKeyPiece(key, definition, hashes.has(definition.name));
  } catch (error) {
    if (error instanceof ValidationException) throw new ValidationException(PartiqlMessages.invalidNextToken);
    throw error;
  }
}

/** Equality on the whole key of the table: one item, costed as GetItem (docs/dynamodb.md §4.3.2). */
export function runGet(
  engine: Engine,
  table: Table,
  plan: SelectPlan & { kind: 'get' },
  consistentRead: boolean,
  returnConsumedCapacity: ReturnConsumedCapacity | undefined,
): Record<string, unknown> {
  if (plan.filter) checkKeyPathsAreScalar(plan.filter.paths, table);
  if (plan.projection) checkKeyPathsAreScalar(plan.projection.paths, table);
  const key = encodeKey(plan.key, table.key);
  const stored = table.items.get(key.hashKey, key.rangeKey);
  const items: (StoredItem | Item)[] = [];
  if (stored !== undefined) {
    const decoded = plan.filter || plan.projection ? stored.decode() : undefined;
    if (plan.filter === undefined || plan.filter.evaluate(decoded)) {
      items.push(plan.projection ? plan.projection.apply(decoded!) : stored);
    }
  }
  const units = readUnits(stored?.size ?? 0, consistentRead);
  if (engine.capacity.active) engine.capacity.readItem(table, units, key.hashKey);
  return withOptional(
    { Items: items },
    'ConsumedCapacity',
    consumedCapacity(returnConsumedCapacity, table.name, units),
  );
}

/** The partition a query reads when it reads only one (its key as the governor knows it). */
function onePartition(target: ReadTarget, plan: SelectPlan & { kind: 'query' }): string | undefined {
  if (plan.partitions.length !== 1) return undefined;
  return planKeyRange(plan.partitions[0]!, target.key).hashKey;
}

/** The partitions' entries one after another, resuming after the token's key in its partition. */
function* queryEntries(
  target: ReadTarget,
  plan: SelectPlan & { kind: 'query' },
  start: PagePosition | undefined,
  fetchFromTable: boolean,
  reading: { partition: number },
): Generator<PageEntry> {
  const first = start?.partition ?? 0;
  if (first >= plan.partitions.length && start !== undefined)
    throw new ValidationException(PartiqlMessages.invalidNextToken);
  for (let index = first; index < plan.partitions.length; index++) {
    reading.partition = index;
    const range = planKeyRange(plan.partitions[index]!, target.key);
    let after: string | undefined;
    if (start !== undefined && index === first) {
      const position = target.positionOf(start.key);
      if (position.hashKey !== range.hashKey) throw new ValidationException(PartiqlMessages.invalidNextToken);
      after = position.rangeKey;
    }
    const partition = target.store.partition(range.hashKey);
    yield* partitionEntries(target, partition, range, plan.forward, after, fetchFromTable);
  }
}

function* scanEntries(
  target: ReadTarget,
  start: PagePosition | undefined,
  fetchFromTable: boolean,
): Generator<PageEntry> {
  let after: { scanKey: string; rangeKey: string } | undefined;
  if (start !== undefined) {
    const position = target.positionOf(start.key);
    after = { scanKey: target.scanKeyOf(position.hashKey), rangeKey: position.rangeKey };
  }
  for (const entry of target.store.scan({ after })) {
    yield pageEntry(target, entry.partition.hashKey, entry.rangeKey, entry.item, fetchFromTable);
  }
}
