import { ValidationException } from '../../errors/index.js';
import type { DocumentPath } from '../../expressions/index.js';
import type { Table } from '../../store/table.js';

/**
 * Key attributes are scalars: a document path that goes inside one (`pk.a`, `pk[0]`) is refused
 * in projections, filters and updates (docs/dynamodb.md §4.2.3).
 */
export function checkKeyPathsAreScalar(paths: readonly DocumentPath[], table: Table): void {
  const tableKeys = new Set([table.key.hash.name, table.key.range?.name]);
  for (const path of paths) {
    if (path.length < 2) continue;
    const name = path[0];
    if (tableKeys.has(name)) {
      throw new ValidationException(
        `Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: ${name}`,
      );
    }
    for (const index of table.secondaryIndexes()) {
      if (index.key.hash.name === name || index.key.range?.name === name) {
        throw new ValidationException(
          `Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: ${name}`,
        );
      }
    }
  }
}

/**
 * An update may not touch a table key attribute, not even inside it (docs/dynamodb.md §4.2.3); the hash key
 * is reported before the range key. A nested path into an index key is the scalar error.
 */
export function checkUpdateTargets(targets: readonly DocumentPath[], table: Table): void {
  for (const keyName of [table.key.hash.name, table.key.range?.name]) {
    if (keyName !== undefined && targets.some((path) => path[0] === keyName)) {
      throw new ValidationException(
        `One or more parameter values were invalid: Cannot update attribute ${keyName}. This attribute is part of the key`,
      );
    }
  }
  checkKeyPathsAreScalar(targets, table);
}
