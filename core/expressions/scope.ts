import { ValidationException } from '../errors/index.js';
import type { AttributeMap, AttributeValue } from '../model/attributeValue.js';
import { compileCondition, compileKeyCondition, compileUpdate } from './compile.js';
import type {
  ConditionExpression,
  KeyConditionPart,
  KeyConditionPlan,
  ProjectionPlan,
  UpdatePlan,
} from './index.js';
import { compileProjection } from './projection.js';
import type { Resolver } from './resolver.js';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The expressions of one request, sharing ExpressionAttributeNames and ExpressionAttributeValues.
 * Each parse resolves `#names` and `:values` and records which were used; `checkUnused` then
 * reports unused ones, names first (docs/dynamodb.md §5.1.7). Parse in the service's order: Update,
 * Condition, KeyCondition, Filter, Projection (docs/dynamodb.md §8.2).
 *
 * Names and values are looked up as own properties only, so `#__proto__` or a value key such as
 * `:constructor` are ordinary entries.
 *
 * @example
 * ```ts
 * const scope = new ExpressionScope({ '#c': 'count' }, { ':one': { N: '1' } });
 * const plan = scope.parseUpdate('SET #c = #c + :one');
 * scope.checkUnused();
 * const { item } = plan.apply({ count: { N: '41' } }); // { count: { N: '42' } }
 * ```
 */
export class ExpressionScope implements Resolver {
  private readonly usedNames = new Set<string>();
  private readonly usedValues = new Set<string>();

  constructor(
    readonly names: Record<string, string> | undefined,
    readonly values: AttributeMap | undefined,
  ) {}

  resolveName(ref: string): string | undefined {
    const names = this.names;
    if (names === undefined || !hasOwn.call(names, ref)) return undefined;
    this.usedNames.add(ref);
    return names[ref];
  }

  resolveValue(ref: string): AttributeValue | undefined {
    const values = this.values;
    if (values === undefined || !hasOwn.call(values, ref)) return undefined;
    this.usedValues.add(ref);
    return values[ref];
  }

  parseUpdate(text: string): UpdatePlan {
    return compileUpdate(text, this);
  }

  parseCondition(text: string, kind: 'Condition' | 'Filter'): ConditionExpression {
    return compileCondition(text, kind, this);
  }

  /**
   * Parses a KeyConditionExpression and applies the stateless key rules at once. To follow the
   * Query order of docs/dynamodb.md §8.3 (those rules after every expression parsed and the unused check),
   * use `prepareKeyCondition` and call `parts()` later.
   */
  parseKeyCondition(text: string): KeyConditionPart[] {
    return compileKeyCondition(text, this).parts();
  }

  /** Grammar and name/value checks now; the rules of docs/dynamodb.md §6.1.2 when `parts()` is called. */
  prepareKeyCondition(text: string): KeyConditionPlan {
    return compileKeyCondition(text, this);
  }

  parseProjection(text: string): ProjectionPlan {
    return compileProjection(text, this);
  }

  /** Throws for unused names, then unused values. */
  checkUnused(): void {
    const unusedNames = unused(this.names, this.usedNames);
    if (unusedNames.length > 0) {
      throw new ValidationException(
        `Value provided in ExpressionAttributeNames unused in expressions: keys: {${unusedNames.join(', ')}}`,
      );
    }
    const unusedValues = unused(this.values, this.usedValues);
    if (unusedValues.length > 0) {
      throw new ValidationException(
        `Value provided in ExpressionAttributeValues unused in expressions: keys: {${unusedValues.join(', ')}}`,
      );
    }
  }
}

function unused(entries: object | undefined, used: ReadonlySet<string>): string[] {
  return entries === undefined ? [] : Object.keys(entries).filter((key) => !used.has(key));
}
