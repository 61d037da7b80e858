import { type AttributeValue, getAttribute, type Item, newAttributeMap } from '../model/attributeValue.js';
import type { ProjectionNode } from './ast.js';
import { parseCached } from './cache.js';
import { reservedInPath } from './conditionCheck.js';
import { expressionError } from './errors.js';
import type { DocumentPath, ProjectionPlan } from './index.js';
import { ProjectionParser } from './parseProjection.js';
import { findPathClash, listOf, mapOf } from './paths.js';
import { type Resolver, resolvePath } from './resolver.js';

/** A tree of the projected paths: a leaf takes the whole value below it. */
interface ProjectionTree {
  leaf: boolean;
  names?: Map<string, ProjectionTree>;
  indexes?: Map<number, ProjectionTree>;
}

function buildTree(paths: readonly DocumentPath[]): ProjectionTree {
  const root: ProjectionTree = { leaf: false, names: new Map() };
  for (const path of paths) {
    let node = root;
    for (const element of path) {
      if (node.leaf) break;
      let next: ProjectionTree | undefined;
      if (typeof element === 'string') {
        node.names ??= new Map();
        next = node.names.get(element);
        if (next === undefined) node.names.set(element, (next = { leaf: false }));
      } else {
        node.indexes ??= new Map();
        next = node.indexes.get(element);
        if (next === undefined) node.indexes.set(element, (next = { leaf: false }));
      }
      node = next;
    }
    node.leaf = true;
    node.names = undefined;
    node.indexes = undefined;
  }
  return root;
}

function projectValue(value: AttributeValue, node: ProjectionTree): AttributeValue | undefined {
  if (node.leaf) return value;
  if (node.names !== undefined) {
    const map = mapOf(value);
    if (map === undefined) return undefined;
    const out = newAttributeMap();
    let found = false;
    for (const [name, child] of node.names) {
      const element = getAttribute(map, name);
      const projected = element === undefined ? undefined : projectValue(element, child);
      if (projected !== undefined) {
        out[name] = projected;
        found = true;
      }
    }
    return found ? { M: out } : undefined;
  }
  if (node.indexes !== undefined) {
    const list = listOf(value);
    if (list === undefined) return undefined;
    const out: AttributeValue[] = [];
    // Several indexes of one list come back compacted, in index order.
    for (const index of [...node.indexes.keys()].sort((a, b) => a - b)) {
      const element = list[index];
      const projected = element === undefined ? undefined : projectValue(element, node.indexes.get(index)!);
      if (projected !== undefined) out.push(projected);
    }
    return out.length > 0 ? { L: out } : undefined;
  }
  return undefined;
}

/**
 * Projects an item onto paths, keeping the item's nesting (`a.b[0]` → `{a: {b: [..]}}`) and
 * omitting missing paths silently (docs/dynamodb.md §5.4.1). Builds null-prototype maps; shares the leaf
 * values with the input, which is never modified.
 */
export class PathProjection implements ProjectionPlan {
  private readonly tree: ProjectionTree;
  private readonly topLevelOnly: boolean;

  constructor(readonly paths: readonly DocumentPath[]) {
    this.topLevelOnly = paths.every((path) => path.length === 1);
    this.tree = buildTree(paths);
  }

  apply(item: Item): Item {
    const out = newAttributeMap();
    if (this.topLevelOnly) {
      for (const path of this.paths) {
        const value = getAttribute(item, path[0]);
        if (value !== undefined) out[path[0]] = value;
      }
      return out;
    }
    for (const [name, child] of this.tree.names!) {
      const value = getAttribute(item, name);
      const projected = value === undefined ? undefined : projectValue(value, child);
      if (projected !== undefined) out[name] = projected;
    }
    return out;
  }
}

function buildProjection(text: string): ProjectionNode {
  const ast = new ProjectionParser(text).parse();
  for (const path of ast.paths) {
    const reserved = reservedInPath(path);
    if (reserved !== undefined) throw expressionError('Projection', reserved);
  }
  return ast;
}

/**
 * ProjectionExpression: syntax → reserved word → undefined name → overlap → conflict
 * (docs/dynamodb.md §8.6).
 */
export function compileProjection(text: string, resolver: Resolver): ProjectionPlan {
  const ast = parseCached('Projection', text, buildProjection);
  const paths: DocumentPath[] = [];
  for (const node of ast.paths) {
    const path = resolvePath(node, resolver);
    if (typeof path === 'string') throw expressionError('Projection', path);
    paths.push(path);
  }
  const clash = findPathClash(paths);
  if (clash !== undefined) throw expressionError('Projection', clash);
  return new PathProjection(paths);
}
