import type { AttributeMap, AttributeValue, Item } from '../model/attributeValue.js';
import { getAttribute } from '../model/attributeValue.js';
import { ExpressionMessages } from './errors.js';
import type { DocumentPath } from './index.js';

/**
 * Document paths at work: reading them from items (own properties only, so `__proto__` is just a
 * name), printing them the way the service does, and the overlap/conflict rules (docs/dynamodb.md §5.3.6).
 */

const hasOwn = Object.prototype.hasOwnProperty;

/** The map inside an `M` value, or undefined for any other value. */
export function mapOf(value: AttributeValue | undefined): AttributeMap | undefined {
  return value !== undefined && hasOwn.call(value, 'M') ? (value as { M: AttributeMap }).M : undefined;
}

/** The elements of an `L` value, or undefined for any other value. */
export function listOf(value: AttributeValue | undefined): AttributeValue[] | undefined {
  return value !== undefined && hasOwn.call(value, 'L') ? (value as { L: AttributeValue[] }).L : undefined;
}

/** Reads the value at a path; undefined when any step is missing or of the wrong type. */
export function readPath(item: Item | undefined, path: DocumentPath): AttributeValue | undefined {
  if (item === undefined) return undefined;
  let value = getAttribute(item, path[0]);
  for (let i = 1; i < path.length && value !== undefined; i++) {
    const element = path[i]!;
    if (typeof element === 'string') {
      const map = mapOf(value);
      value = map === undefined ? undefined : getAttribute(map, element);
    } else {
      const list = listOf(value);
      value = list === undefined || element >= list.length ? undefined : list[element];
    }
  }
  return value;
}

/** `[a, b, [1]]`: names as resolved (even `[3]` from `#x`), indexes in brackets. */
export function printPath(path: DocumentPath): string {
  let text = '[';
  for (let i = 0; i < path.length; i++) {
    const element = path[i]!;
    if (i > 0) text += ', ';
    text += typeof element === 'number' ? `[${element}]` : element;
  }
  return `${text}]`;
}

export function samePath(a: DocumentPath, b: DocumentPath): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

type Relation = 'overlap' | 'conflict' | 'none';

/** Equal or ancestor paths overlap; a shared prefix diverging as map key versus index conflicts. */
function relate(a: DocumentPath, b: DocumentPath): Relation {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (typeof x !== typeof y) return 'conflict';
    if (x !== y) return 'none';
  }
  return 'overlap';
}

/**
 * The first clash among paths in expression order (docs/dynamodb.md §5.3.6): any overlap is reported before
 * any conflict; the earlier path is printed first. Returns the message, or undefined.
 */
export function findPathClash(paths: readonly DocumentPath[]): string | undefined {
  let conflict: string | undefined;
  for (let j = 1; j < paths.length; j++) {
    const later = paths[j]!;
    for (let i = 0; i < j; i++) {
      const earlier = paths[i]!;
      const relation = relate(earlier, later);
      if (relation === 'overlap') return ExpressionMessages.overlap(printPath(earlier), printPath(later));
      if (relation === 'conflict' && conflict === undefined) {
        conflict = ExpressionMessages.conflict(printPath(earlier), printPath(later));
      }
    }
  }
  return conflict;
}
