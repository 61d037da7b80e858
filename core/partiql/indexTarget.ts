import { type ReadTarget, resolveReadTarget } from '../actions/shared/readTarget.js';
import { ValidationException } from '../errors/index.js';
import type { DocumentPath } from '../expressions/index.js';
import { projectedNamesOf } from '../indexes/projection.js';
import { compareScalars } from '../model/compare.js';
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
 * attribute the index does not project, GSI or LSI alike (conformance indexQualifier.test.ts).
 * When ORed branches fix the partitions, the read goes through if one branch filters on projected
 * attributes only; otherwise the refusal names the attributes of the branch with the highest
 * partition value (floci-io/floci DynamoDbPartiQLKeyPlan, checked against DynamoDB in eu-west-2,
 * September 2026). Unkeyed reads scan the index and simply find nothing (docs/partiql.md §5.4).
 */
export function checkFilterProjection(target: ReadTarget, plan: SelectPlan): void {
  const { index } = target;
  if (index === undefined || plan.kind !== 'query') return;
  const projected = projectedNamesOf(index, target.table);
  if (projected === undefined) return;
  const unprojected = (paths: readonly DocumentPath[]) => {
    const missing = new Set<string>();
    for (const [name] of paths) if (!projected.has(name)) missing.add(name);
    return [...missing];
  };
  let missing: string[] = [];
  if (plan.keyed) {
    if (plan.filter !== undefined) missing = unprojected(plan.filter.paths);
  } else if (plan.branches !== undefined) {
    const byPartition = [...plan.branches].sort((a, b) => compareScalars(a.partition, b.partition) ?? 0);
    for (const branch of byPartition) {
      missing = unprojected(branch.paths);
      if (missing.length === 0) return;
    }
  }
  if (missing.length > 0)
    throw new ValidationException(PartiqlMessages.unprojectedFilter(index.name, missing));
}
