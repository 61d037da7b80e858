import type { AttributeMap } from '../model/attributeValue.js';
import type { ConditionExpression, KeyConditionPart, ProjectionPlan, UpdatePlan } from './index.js';

/**
 * The expressions of one request, sharing ExpressionAttributeNames and ExpressionAttributeValues.
 * Each parse resolves `#names` and `:values` and records which were used; `checkUnused` then
 * reports unused ones, names first (spec §5.1.7). Parse in the service's order: Update,
 * Condition, KeyCondition, Filter, Projection (spec §8.2).
 */
export class ExpressionScope {
  constructor(
    readonly names: Record<string, string> | undefined,
    readonly values: AttributeMap | undefined,
  ) {}

  parseUpdate(_text: string): UpdatePlan {
    throw new Error('ExpressionScope.parseUpdate: not implemented yet');
  }

  parseCondition(_text: string, _kind: 'Condition' | 'Filter'): ConditionExpression {
    throw new Error('ExpressionScope.parseCondition: not implemented yet');
  }

  parseKeyCondition(_text: string): KeyConditionPart[] {
    throw new Error('ExpressionScope.parseKeyCondition: not implemented yet');
  }

  parseProjection(_text: string): ProjectionPlan {
    throw new Error('ExpressionScope.parseProjection: not implemented yet');
  }

  /** Throws for unused names, then unused values. */
  checkUnused(): void {}
}
