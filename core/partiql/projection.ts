import { ValidationException } from '../errors/index.js';
import type { DocumentPath, ProjectionPlan } from '../expressions/index.js';
import { findPathClash, readPath } from '../expressions/paths.js';
import { type Item, newAttributeMap } from '../model/attributeValue.js';
import type { PathExpr } from './ast.js';
import { documentPath } from './conditions.js';

/**
 * A SELECT list as a projection (docs/partiql.md §2.5). Unlike ProjectionExpression, PartiQL
 * returns each selected path flat, named by its last map member and the list indexes after it:
 * `a.b.c` comes back as `c`, `a[1]` as `a[1]`, `a.b[0]` as `b[0]` (DynamoDB Local's
 * SelectProjectionUnnester; unverified against the service for nested paths). Missing paths are
 * left out, so an item lacking them all comes back as `{}`.
 */
export class SelectProjection implements ProjectionPlan {
  readonly paths: readonly DocumentPath[];
  private readonly names: readonly string[];

  constructor(expressions: readonly PathExpr[]) {
    const paths = expressions.map(documentPath);
    const clash = findPathClash(paths);
    if (clash !== undefined) throw new ValidationException(clash);
    this.paths = paths;
    this.names = paths.map(outputName);
  }

  apply(item: Item): Item {
    const out = newAttributeMap();
    for (let i = 0; i < this.paths.length; i++) {
      const value = readPath(item, this.paths[i]!);
      if (value !== undefined) out[this.names[i]!] = value;
    }
    return out;
  }
}

function outputName(path: DocumentPath): string {
  let name = '';
  for (const element of path) name = typeof element === 'string' ? element : `${name}[${element}]`;
  return name;
}
