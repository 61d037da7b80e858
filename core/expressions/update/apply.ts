import {
  type AttributeMap,
  type AttributeValue,
  type Item,
  newAttributeMap,
} from '../../model/attributeValue.js';
import type { DocumentPath, UpdatePlan, UpdateResult } from '../index.js';
import { readPath } from '../paths.js';
import { PathProjection } from '../projection.js';
import type { UpdateAction } from './resolve.js';
import { addToValue, type DeleteOutcome, deleteFromValue, evaluateUpdateValue } from './values.js';
import { ItemWriter } from './writer.js';

/**
 * ReturnValues of an update (docs/dynamodb.md §4.2.4): UPDATED_OLD / UPDATED_NEW are the old and new item
 * projected onto every path the update touched, so nested updates return only the touched paths
 * inside their parents. Both quirks follow: `SET a.c[100]` (appended elsewhere) is absent from
 * UPDATED_NEW, and after `REMOVE a.c[1]` UPDATED_NEW shows the element shifted into `a.c[1]`.
 * Computed on first read: most writes never ask.
 */
export class AppliedUpdate implements UpdateResult {
  private old: AttributeMap | undefined;
  private new: AttributeMap | undefined;

  constructor(
    readonly item: Item,
    private readonly previous: Item | undefined,
    private readonly projection: PathProjection,
  ) {}

  get updatedOld(): AttributeMap {
    this.old ??= this.previous === undefined ? newAttributeMap() : this.projection.apply(this.previous);
    return this.old;
  }

  get updatedNew(): AttributeMap {
    this.new ??= this.projection.apply(this.item);
    return this.new;
  }
}

/**
 * Applies resolved actions to a copy of an item. All reads happen before any write
 * (`SET x = :v, y = x` reads the old x; `REMOVE a SET b = a` copies the old a, docs/dynamodb.md §5.3.4);
 * REMOVE on a missing item does nothing.
 */
export function applyActions(actions: readonly UpdateAction[], item: Item | undefined): Item {
  const computed: (AttributeValue | DeleteOutcome | undefined)[] = new Array(actions.length);
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i]!;
    switch (action.kind) {
      case 'SET':
        computed[i] = evaluateUpdateValue(action.value, item);
        break;
      case 'ADD':
        computed[i] = addToValue(readPath(item, action.path), action.value);
        break;
      case 'DELETE':
        computed[i] = deleteFromValue(readPath(item, action.path), action.value);
        break;
      case 'REMOVE':
        break;
    }
  }
  const writer = new ItemWriter(item);
  const removals: DocumentPath[] = [];
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i]!;
    const value = computed[i];
    if (action.kind === 'REMOVE') {
      if (item !== undefined) removals.push(action.path);
    } else if (value === 'absent') {
      writer.containerOf(action.path); // a missing set is left alone, but its parent must exist
    } else if (value === 'emptied') {
      removals.push(action.path); // an emptied set disappears (docs/dynamodb.md §5.3.3)
    } else {
      writer.set(action.path, value as AttributeValue);
    }
  }
  writer.flushAppends();
  if (removals.length > 0) writer.removeAll(removals);
  return writer.root;
}

/** An UpdateExpression (or AttributeUpdates) ready to apply. */
export class ActionUpdatePlan<Action extends { readonly path: DocumentPath }> implements UpdatePlan {
  readonly targets: readonly DocumentPath[];
  private projection: PathProjection | undefined;

  constructor(
    private readonly actions: readonly Action[],
    /** Only REMOVE / DELETE: applied to a missing item they create nothing (docs/dynamodb.md §4.2.2). */
    readonly removesOnly: boolean,
    private readonly applyTo: (actions: readonly Action[], item: Item | undefined) => Item,
  ) {
    this.targets = actions.map((action) => action.path);
  }

  apply(item: Item | undefined): UpdateResult {
    this.projection ??= new PathProjection(this.targets);
    return new AppliedUpdate(this.applyTo(this.actions, item), item, this.projection);
  }
}

export function expressionUpdatePlan(actions: readonly UpdateAction[]): UpdatePlan {
  const removesOnly =
    actions.length > 0 && actions.every((action) => action.kind === 'REMOVE' || action.kind === 'DELETE');
  return new ActionUpdatePlan(actions, removesOnly, applyActions);
}
