import type { AttributeValue } from '../../model/attributeValue.js';

/** Legacy (pre-expression) parameter shapes, as the deserializer hands them over. */

export interface ExpectedAttributeValue {
  Value?: AttributeValue;
  Exists?: boolean;
  ComparisonOperator?: string;
  AttributeValueList?: AttributeValue[];
}

export interface LegacyCondition {
  ComparisonOperator: string;
  AttributeValueList?: AttributeValue[];
}

export interface AttributeValueUpdate {
  Value?: AttributeValue;
  Action?: 'ADD' | 'PUT' | 'DELETE';
}

/** Prefix of most legacy-parameter messages (docs/dynamodb.md §5.4.3, §5.4.4, §4.2.7). */
export const INVALID = 'One or more parameter values were invalid: ';
