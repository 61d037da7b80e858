import type { AttributeMapShape, MapShape, Shape, StringShape, StructureShape } from './shape.js';

/** Shapes shared by several operations (API reference data types). */

export const TABLE_NAME_PATTERN = '[a-zA-Z0-9_.-]+';

export const tableName: StringShape = {
  kind: 'string',
  required: true,
  minLength: 3,
  maxLength: 255,
  pattern: TABLE_NAME_PATTERN,
};

export const indexName: StringShape = {
  kind: 'string',
  minLength: 3,
  maxLength: 255,
  pattern: TABLE_NAME_PATTERN,
};

// Enum sets print in the service's order (spec §1.2.9).
export const returnConsumedCapacity: StringShape = { kind: 'string', enum: ['INDEXES', 'TOTAL', 'NONE'] };
export const returnValues: StringShape = {
  kind: 'string',
  enum: ['ALL_NEW', 'UPDATED_OLD', 'ALL_OLD', 'NONE', 'UPDATED_NEW'],
};
export const returnItemCollectionMetrics: StringShape = { kind: 'string', enum: ['SIZE', 'NONE'] };
export const returnValuesOnConditionCheckFailure: StringShape = { kind: 'string', enum: ['ALL_OLD', 'NONE'] };
export const conditionalOperator: StringShape = { kind: 'string', enum: ['OR', 'AND'] };
export const comparisonOperator: StringShape = {
  kind: 'string',
  enum: [
    'IN',
    'NULL',
    'BETWEEN',
    'LT',
    'NOT_CONTAINS',
    'EQ',
    'GT',
    'NOT_NULL',
    'NE',
    'LE',
    'BEGINS_WITH',
    'GE',
    'CONTAINS',
  ],
};
export const select: StringShape = {
  kind: 'string',
  enum: ['SPECIFIC_ATTRIBUTES', 'COUNT', 'ALL_ATTRIBUTES', 'ALL_PROJECTED_ATTRIBUTES'],
};

export const expressionString: StringShape = { kind: 'string' };
export const expressionAttributeNames: MapShape = { kind: 'map', value: { kind: 'string' } };
export const expressionAttributeValues: AttributeMapShape = { kind: 'attributeMap' };

/** An item or key: attribute name → AttributeValue. */
export const attributeMap = (required = false): AttributeMapShape => ({ kind: 'attributeMap', required });

/** AttributesToGet: 1..255 names (spec §4.2.6). */
export const attributesToGet: Shape = {
  kind: 'list',
  member: { kind: 'string' },
  minLength: 1,
  maxLength: 255,
};

const attributeValueList: Shape = { kind: 'list', member: { kind: 'attributeValue' } };

/** Legacy `Expected` entries (ExpectedAttributeValue). */
export const expectedAttributeValue: StructureShape = {
  kind: 'structure',
  name: 'ExpectedAttributeValue',
  members: {
    Value: { kind: 'attributeValue' },
    Exists: { kind: 'boolean' },
    ComparisonOperator: comparisonOperator,
    AttributeValueList: attributeValueList,
  },
};
export const expected: MapShape = { kind: 'map', value: expectedAttributeValue };

/** Legacy `Condition` entries (QueryFilter, ScanFilter, KeyConditions). */
export const condition: StructureShape = {
  kind: 'structure',
  name: 'Condition',
  members: {
    AttributeValueList: attributeValueList,
    ComparisonOperator: { ...comparisonOperator, required: true },
  },
};
export const conditionMap: MapShape = { kind: 'map', value: condition };

/** Legacy `AttributeUpdates` entries (AttributeValueUpdate). */
export const attributeUpdates: MapShape = {
  kind: 'map',
  value: {
    kind: 'structure',
    name: 'AttributeValueUpdate',
    members: {
      Value: { kind: 'attributeValue' },
      Action: { kind: 'string', enum: ['ADD', 'PUT', 'DELETE'] },
    },
  },
};
