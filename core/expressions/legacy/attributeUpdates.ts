import { ValidationException } from '../../errors/index.js';
import {
  type AttributeValue,
  copyAttributeMap,
  getAttribute,
  type Item,
  isSetType,
  newAttributeMap,
  typeOf,
} from '../../model/attributeValue.js';
import { attributeNameProblem } from '../../model/parseAttributeValue.js';
import { UpdateMessages } from '../errors.js';
import type { DocumentPath, ProjectionPlan, UpdatePlan } from '../index.js';
import { listOf } from '../paths.js';
import { PathProjection } from '../projection.js';
import { ActionUpdatePlan } from '../update/apply.js';
import { setDifference, setUnion, sum } from '../update/values.js';
import { type AttributeValueUpdate, INVALID } from './types.js';

interface LegacyAction {
  readonly action: 'PUT' | 'DELETE' | 'ADD';
  readonly name: string;
  readonly path: DocumentPath;
  readonly value: AttributeValue | undefined;
}

const NOT_ADDABLE: ReadonlySet<string> = new Set(['S', 'B', 'BOOL', 'NULL', 'M']);

/**
 * AttributeUpdates → update plan, with the checks of docs/dynamodb.md §4.2.7 in attribute order: PUT
 * (default) and ADD need a Value; DELETE with a value takes a set; ADD takes N, a set or (undocumented) a
 * list, which it appends. A clash with the stored type is `Type mismatch for attribute to update`;
 * an emptied set disappears.
 *
 * @example
 * ```ts
 * const plan = updateFromAttributeUpdates({ tags: { Action: 'ADD', Value: { SS: ['new'] } } });
 * plan.apply({ tags: { SS: ['old'] } }).item; // { tags: { SS: ['old', 'new'] } }
 * ```
 */
export function updateFromAttributeUpdates(updates: Record<string, AttributeValueUpdate>): UpdatePlan {
  const actions: LegacyAction[] = Object.keys(updates).map((name) => {
    const { Action: action = 'PUT', Value: value } = updates[name]!;
    if (value === undefined && action !== 'DELETE') {
      throw new ValidationException(
        `${INVALID}Only DELETE action is allowed when no attribute value is specified`,
      );
    }
    if (value !== undefined && action === 'DELETE' && !isSetType(typeOf(value))) {
      throw new ValidationException(
        `${INVALID}DELETE action with value is not supported for the type ${typeOf(value)}`,
      );
    }
    if (value !== undefined && action === 'ADD' && NOT_ADDABLE.has(typeOf(value))) {
      throw new ValidationException(`${INVALID}ADD action is not supported for the type ${typeOf(value)}`);
    }
    // The updated attribute's name is checked after its update, as DynamoDB Local's InputConverter
    // does (docs/dynamodb.md §2.5.4).
    const nameProblem = attributeNameProblem(name);
    if (nameProblem !== undefined) throw new ValidationException(nameProblem);
    return { action, name, path: [name], value };
  });
  const removesOnly = actions.length > 0 && actions.every((action) => action.action === 'DELETE');
  return new ActionUpdatePlan(actions, removesOnly, applyAttributeUpdates);
}

function mismatch(): never {
  throw new ValidationException(UpdateMessages.legacyTypeMismatch);
}

function applyAttributeUpdates(actions: readonly LegacyAction[], item: Item | undefined): Item {
  const next = item === undefined ? newAttributeMap() : copyAttributeMap(item);
  for (const { action, name, value } of actions) {
    const current = getAttribute(next, name);
    if (action === 'PUT') {
      next[name] = value!;
      continue;
    }
    if (value === undefined) {
      delete next[name];
      continue;
    }
    if (current === undefined) {
      if (action === 'ADD') next[name] = value;
      continue;
    }
    const type = typeOf(value);
    if (typeOf(current) !== type) mismatch();
    if (action === 'DELETE') {
      const remaining = setDifference(type as 'SS', members(current, type), members(value, type));
      if (remaining === undefined) delete next[name];
      else next[name] = remaining;
    } else if (type === 'N') {
      next[name] = sum((current as { N: string }).N, (value as { N: string }).N);
    } else if (type === 'L') {
      next[name] = { L: [...listOf(current)!, ...listOf(value)!] };
    } else {
      next[name] = setUnion(type as 'SS', members(current, type), members(value, type));
    }
  }
  return next;
}

function members(value: AttributeValue, type: string): string[] {
  return (value as Record<string, string[]>)[type]!;
}

/**
 * AttributesToGet → projection of top-level attributes; duplicates are rejected (docs/dynamodb.md §4.2.6).
 */
export function projectionFromAttributesToGet(names: string[]): ProjectionPlan {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) {
      throw new ValidationException(`${INVALID}Duplicate value in attribute name: ${name}`);
    }
    seen.add(name);
  }
  return new PathProjection(names.map((name): DocumentPath => [name]));
}
