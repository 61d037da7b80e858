import { type ReadTarget, resolveReadTarget } from '../actions/shared/readTarget.js';
import { ValidationException } from '../errors/index.js';
import { projectedNamesOf } from '../indexes/projection.js';
import type { Table } from '../store/table.js';
import { PartiqlMessages } from './errors.js';
import type { SelectPlan } from './selectPlan.js';

/**
 * What a SELECT reads: the table, or the index its FROM clause names. The PartiQL surface words two
 * refusals differently from Query's (`The table does not have the specified index`, with no name
 * after it, and `Strongly consistent read is not supported on Global Secondary Indexes`); the rest
 * (a GSI still backfilling) is Query's own (docs/partiql.md §5.4).
 */
export function selectTarget(
  table: Table,
  indexName: string | undefined,
  consistentRead: boolean,
): ReadTarget {
  if (indexName !== undefined) {
    const index = table.globalSecondaryIndexes.get(indexName) ?? table.localSecondaryIndexes.get(indexName);
    if (index === undefined || index.status === 'DELETING')
      throw new ValidationException(PartiqlMessages.noSuchIndex);
    if (index.kind === 'GSI' && consistentRead)
      throw new ValidationException(PartiqlMessages.consistentReadOnGsi);
  }
  return resolveReadTarget(table, indexName, consistentRead);
}

/**
 * A read keyed on the index (its partition key fixed by a top-level `=` or IN) may not filter on an
 * attribute the index does not project, GSI or LSI alike; unkeyed reads, and filters inside an OR
 * whose branches name the key, scan the index and simply find nothing (conformance
 * indexQualifier.test.ts, docs/partiql.md §3.2).
 */
export function checkFilterProjection(target: ReadTarget, plan: SelectPlan): void {
  const { index } = target;
  if (index === undefined || plan.kind !== 'query' || !plan.keyed || plan.filter === undefined) return;
  const projected = projectedNamesOf(index, target.table);
  if (projected === undefined) return;
  const missing = new Set<string>();
  for (const [name] of plan.filter.paths) if (!projected.has(name)) missing.add(name);
  if (missing.size > 0)
    throw new ValidationException(PartiqlMessages.unprojectedFilter(index.name, [...missing]));
}
