import type { AttributeValue } from '../model/attributeValue.js';
import type { PathNode } from './ast.js';
import { ExpressionMessages } from './errors.js';
import type { DocumentPath } from './index.js';

/**
 * Where `#names` and `:values` come from. Each successful lookup marks the entry used: use is
 * syntactic (docs/dynamodb.md §5.1.7), so every reference in a parsed expression counts.
 */
export interface Resolver {
  resolveName(ref: string): string | undefined;
  resolveValue(ref: string): AttributeValue | undefined;
}

/** Resolves a path's elements; returns the undefined-name message instead of a path on failure. */
export function resolvePath(path: PathNode, resolver: Resolver): DocumentPath | string {
  const elements = path.elements;
  const resolved: (string | number)[] = new Array(elements.length);
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i]!;
    if (element.type === 'name') resolved[i] = element.name;
    else if (element.type === 'index') resolved[i] = element.index;
    else {
      const name = resolver.resolveName(element.ref);
      if (name === undefined) return ExpressionMessages.undefinedName(element.ref);
      resolved[i] = name;
    }
  }
  return resolved as unknown as DocumentPath;
}
