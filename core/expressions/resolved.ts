import type { AttributeType, AttributeValue } from '../model/attributeValue.js';
import type { CompareOperator } from './ast.js';
import type { DocumentPath } from './index.js';

/**
 * Conditions after resolution: names and values substituted, every static check passed. These
 * trees are what `evaluate.ts` walks; legacy Expected / QueryFilter / ScanFilter conditions are
 * built directly in this form (see `legacy/`).
 */
export type Operand =
  | { readonly kind: 'path'; readonly path: DocumentPath }
  | { readonly kind: 'value'; readonly value: AttributeValue }
  | { readonly kind: 'size'; readonly operand: Operand };

export type Condition =
  | {
      readonly kind: 'compare';
      readonly operator: CompareOperator;
      readonly left: Operand;
      readonly right: Operand;
    }
  | { readonly kind: 'between'; readonly operand: Operand; readonly lower: Operand; readonly upper: Operand }
  | { readonly kind: 'in'; readonly operand: Operand; readonly list: readonly Operand[] }
  | { readonly kind: 'exists' | 'notExists'; readonly path: DocumentPath }
  | { readonly kind: 'type'; readonly operand: Operand; readonly type: AttributeType }
  | { readonly kind: 'beginsWith'; readonly operand: Operand; readonly prefix: Operand }
  | { readonly kind: 'contains' | 'notContains'; readonly operand: Operand; readonly member: Operand }
  | { readonly kind: 'and' | 'or'; readonly left: Condition; readonly right: Condition }
  | { readonly kind: 'not'; readonly operand: Condition }
  | { readonly kind: 'true' };

/** The function name a resolved function condition came from (for KeyCondition messages). */
export const FUNCTION_NAMES: Readonly<Partial<Record<Condition['kind'], string>>> = {
  exists: 'attribute_exists',
  notExists: 'attribute_not_exists',
  type: 'attribute_type',
  beginsWith: 'begins_with',
  contains: 'contains',
};
