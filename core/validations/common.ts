import type { AttributeMapShape, ListShape, MapShape, Shape, StringShape, StructureShape } from './shape.js';

/** Shapes shared by several operations (API reference data types). */

export const TABLE_NAME_PATTERN = '[a-zA-Z0-9_.-]+';

export const tableName: StringShape = {
  kind: 'string',
  required: true,
  minLength: 3,
  maxLength: 255,
  pattern: TABLE_NAME_PATTERN,
};

/**
 * TableName of the data-plane operations: a table name or the table's ARN, 1 to 1024 characters
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html). A name that
 * is not an ARN still follows the name rules (recorded 2026: `'bad!name' … pattern`, 256 characters
 * `… less than or equal to 255`), and `''` breaks the length of 1 alone (docs/dynamodb.md §2.5.3).
 */
export const dataPlaneTableName: StringShape = {
  kind: 'string',
  required: true,
  minLength: 1,
  maxLength: 1024,
  pattern: TABLE_NAME_PATTERN,
  names: { minLength: 3, maxLength: 255 },
};

/**
 * TableName of PutItem, UpdateItem and DeleteItem, where the newer framework reports `''` first
 * and alone (eu-west-2, eu-central-1 and us-east-1 by August 2026; docs/dynamodb.md §2.5.3).
 */
export const writeTableName: StringShape = { ...dataPlaneTableName, emptyFirst: true };

export const indexName: StringShape = {
  kind: 'string',
  minLength: 3,
  maxLength: 255,
  pattern: TABLE_NAME_PATTERN,
};

// Enum sets print in the service's order (docs/dynamodb.md §1.2.9).
export const returnConsumedCapacity: StringShape = { kind: 'string', enum: ['INDEXES', 'TOTAL', 'NONE'] };
/**
 * ReturnValues of PutItem, UpdateItem and DeleteItem. The newer framework's entry prints neither
 * value nor member, and its own set, `UPDATE_NEW` (sic) included (2026; docs/dynamodb.md §1.2.10);
 * the older one was `Value '<v>' at 'returnValues' … [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]`.
 */
export const returnValues: StringShape = {
  kind: 'string',
  enum: ['ALL_NEW', 'UPDATED_OLD', 'ALL_OLD', 'NONE', 'UPDATED_NEW'],
  entry:
    'Failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]',
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

/** An item or key: attribute name → AttributeValue (names of 1 to 65,535 bytes, docs/dynamodb.md §2.5.4). */
export const attributeMap = (required = false): AttributeMapShape => ({
  kind: 'attributeMap',
  required,
  names: true,
});

/** AttributesToGet: 1..255 names (docs/dynamodb.md §4.2.6). */
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

/* Control-plane shapes (CreateTable, UpdateTable, tagging): API reference data types. */

/** AttributeName of a KeySchemaElement or AttributeDefinition: 1..255 characters. */
const keyAttributeName: StringShape = { kind: 'string', required: true, minLength: 1, maxLength: 255 };

export const keySchemaElement: StructureShape = {
  kind: 'structure',
  name: 'KeySchemaElement',
  members: {
    AttributeName: keyAttributeName,
    KeyType: { kind: 'string', required: true, enum: ['HASH', 'RANGE'] },
  },
};

/**
 * A KeySchema list. Tables and LSIs hold 1..2 elements; GSIs have no upper bound in the list
 * since the multi-attribute keys of Nov 2025 (docs/dynamodb.md §3.1.6), so their limits are semantic checks.
 */
export const keySchema = (maxLength: number | undefined, required = true): ListShape => ({
  kind: 'list',
  member: keySchemaElement,
  required,
  minLength: 1,
  ...(maxLength === undefined ? {} : { maxLength }),
});

export const attributeDefinitions = (required: boolean): ListShape => ({
  kind: 'list',
  required,
  member: {
    kind: 'structure',
    name: 'AttributeDefinition',
    members: {
      AttributeName: keyAttributeName,
      AttributeType: { kind: 'string', required: true, enum: ['B', 'N', 'S'] },
    },
  },
});

export const projection: StructureShape = {
  kind: 'structure',
  name: 'Projection',
  required: true,
  members: {
    ProjectionType: { kind: 'string', enum: ['ALL', 'INCLUDE', 'KEYS_ONLY'] },
    NonKeyAttributes: {
      kind: 'list',
      minLength: 1,
      member: { kind: 'string', minLength: 1, maxLength: 255 },
    },
  },
};

/**
 * ProvisionedThroughput: both units required, ≥ 1 (the 10¹² bound is a semantic check,
 * docs/dynamodb.md §3.1.2).
 */
export const provisionedThroughput = (required = false): StructureShape => ({
  kind: 'structure',
  name: 'ProvisionedThroughput',
  required,
  // Write before read: the order the service lists them in (dynalite's recordings).
  members: {
    WriteCapacityUnits: { kind: 'integer', javaType: 'Long', required: true, min: 1 },
    ReadCapacityUnits: { kind: 'integer', javaType: 'Long', required: true, min: 1 },
  },
});

export const onDemandThroughput: StructureShape = {
  kind: 'structure',
  name: 'OnDemandThroughput',
  members: {
    MaxReadRequestUnits: { kind: 'integer', javaType: 'Long' },
    MaxWriteRequestUnits: { kind: 'integer', javaType: 'Long' },
  },
};

export const warmThroughput: StructureShape = {
  kind: 'structure',
  name: 'WarmThroughput',
  members: {
    ReadUnitsPerSecond: { kind: 'integer', javaType: 'Long' },
    WriteUnitsPerSecond: { kind: 'integer', javaType: 'Long' },
  },
};

export const billingMode: StringShape = { kind: 'string', enum: ['PROVISIONED', 'PAY_PER_REQUEST'] };

export const streamViewType: StringShape = {
  kind: 'string',
  enum: ['NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES', 'KEYS_ONLY'],
};

export const streamSpecification: StructureShape = {
  kind: 'structure',
  name: 'StreamSpecification',
  members: {
    StreamEnabled: { kind: 'boolean', required: true },
    StreamViewType: streamViewType,
  },
};

export const sseSpecification: StructureShape = {
  kind: 'structure',
  name: 'SSESpecification',
  members: {
    Enabled: { kind: 'boolean' },
    SSEType: { kind: 'string', enum: ['AES256', 'KMS'] },
    KMSMasterKeyId: { kind: 'string' },
  },
};

/** A tag: key 1..128 characters, value 0..256 (both required). */
export const tag: StructureShape = {
  kind: 'structure',
  name: 'Tag',
  members: {
    Key: { kind: 'string', required: true, minLength: 1, maxLength: 128 },
    Value: { kind: 'string', required: true, maxLength: 256 },
  },
};

export const tagList = (required: boolean): ListShape => ({ kind: 'list', member: tag, required });

/**
 * A resource ARN for the tagging operations, up to 1283 characters. An empty one is not a
 * constraint violation: IAM refuses it first, `on resource: *` (docs/dynamodb.md §3.4.3).
 */
export const resourceArn: StringShape = { kind: 'string', maxLength: 1283 };
