import { ValidationException } from '../../errors/index.js';
import {
  type AttributeMap,
  type AttributeValue,
  copyAttributeMap,
  getAttribute,
  type Item,
  newAttributeMap,
} from '../../model/attributeValue.js';
import { UpdateMessages } from '../errors.js';
import type { DocumentPath } from '../index.js';
import { listOf, mapOf } from '../paths.js';

type Container = AttributeMap | AttributeValue[];

function invalidPath(): never {
  throw new ValidationException(UpdateMessages.invalidPath);
}

/**
 * Writes into a copy of an item, copying each container on the way down the first time it is
 * touched (the input is never modified; new maps are null-prototype). List indexes always refer to
 * the list as it was (docs/dynamodb.md §5.3.5): in-place writes do not shift anything, writes past the end
 * are queued and appended in index order (`flushAppends`), and removals run last, deepest and
 * highest index first (`removeAll`).
 */
export class ItemWriter {
  readonly root: AttributeMap;
  /** Containers this writer made, so each is copied once. */
  private readonly fresh = new Set<object>();
  /** Length of each copied list before any write. */
  private readonly originalLength = new Map<AttributeValue[], number>();
  private readonly appends = new Map<AttributeValue[], { index: number; value: AttributeValue }[]>();

  constructor(item: Item | undefined) {
    this.root = item === undefined ? newAttributeMap() : copyAttributeMap(item);
    this.fresh.add(this.root);
  }

  /**
   * The writable container of a path's last element. Writing below a missing or wrong-typed
   * parent is `The document path provided in the update expression is invalid for update`.
   */
  containerOf(path: DocumentPath): Container {
    let container: Container = this.root;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!;
      const child =
        typeof key === 'string'
          ? getAttribute(container as AttributeMap, key)
          : (container as AttributeValue[])[key];
      let writable: Container;
      if (typeof path[i + 1] === 'string') {
        const map = mapOf(child);
        if (map === undefined) return invalidPath();
        if (this.fresh.has(map)) writable = map;
        else {
          writable = copyAttributeMap(map);
          this.fresh.add(writable);
          store(container, key, { M: writable });
        }
      } else {
        const list = listOf(child);
        if (list === undefined) return invalidPath();
        if (this.fresh.has(list)) writable = list;
        else {
          writable = list.slice();
          this.fresh.add(writable);
          this.originalLength.set(writable, list.length);
          store(container, key, { L: writable });
        }
      }
      container = writable;
    }
    return container;
  }

  set(path: DocumentPath, value: AttributeValue): void {
    const container = this.containerOf(path);
    const last = path[path.length - 1]!;
    if (typeof last === 'string') {
      (container as AttributeMap)[last] = value;
      return;
    }
    const list = container as AttributeValue[];
    if (last < list.length) {
      list[last] = value;
      return;
    }
    // Past the end: appended after the in-place writes, in index order (docs/dynamodb.md §5.3.5).
    let queued = this.appends.get(list);
    if (queued === undefined) this.appends.set(list, (queued = []));
    queued.push({ index: last, value });
  }

  flushAppends(): void {
    for (const [list, queued] of this.appends) {
      queued.sort((a, b) => a.index - b.index);
      for (const { value } of queued) list.push(value);
    }
    this.appends.clear();
  }

  /**
   * Removes paths from the item. A missing leaf of an existing map and an index past the end of
   * the original list are ignored; a missing parent is an invalid path.
   */
  removeAll(paths: DocumentPath[]): void {
    paths.sort(deepestLastFirst);
    for (const path of paths) {
      const container = this.containerOf(path);
      const last = path[path.length - 1]!;
      if (typeof last === 'string') {
        delete (container as AttributeMap)[last];
        continue;
      }
      const list = container as AttributeValue[];
      if (last < (this.originalLength.get(list) ?? list.length)) list.splice(last, 1);
    }
  }
}

function store(container: Container, key: string | number, value: AttributeValue): void {
  if (typeof key === 'number') (container as AttributeValue[])[key] = value;
  else (container as AttributeMap)[key] = value;
}

/** Orders removals so that no removal shifts an index another one still needs. */
function deepestLastFirst(a: DocumentPath, b: DocumentPath): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return x < y ? -1 : 1;
  }
  return b.length - a.length;
}
