/**
 * The requests eddy is compared on, per family of issue #25 (docs/dynamodb.md §8, §9). Each case
 * names what its reference proves:
 *
 * - `same`: eddy answers what the reference answers (status, exception, message). dynalite's
 *   texts are the ones its tests recorded against DynamoDB; moto's are used only where its
 *   `aws_verified` tests recorded the text against DynamoDB in 2026.
 * - `newer`: eddy follows newer evidence than the reference; both answers are pinned, so a
 *   change on either side shows here first.
 */
export interface Case {
  readonly family: string;
  readonly name: string;
  readonly operation: string;
  readonly body: Record<string, unknown>;
  /** Compare constraint lists as sets of entries (their order is not fixed). */
  readonly entries?: boolean;
  /** Requests run first on every server (items the case reads). */
  readonly before?: readonly [string, Record<string, unknown>][];
}

export interface NewerCase extends Case {
  /** What eddy answers, and the evidence. */
  readonly eddy: { readonly error: string; readonly message: string; readonly evidence: string };
  /** What the older reference answers. */
  readonly reference: { readonly error: string; readonly message: string };
}

const S = (value: string) => ({ S: value });
const definition = (name: string, type = 'S') => ({ AttributeName: name, AttributeType: type });
const key = (name: string, type: 'HASH' | 'RANGE' | 'SORT') => ({ AttributeName: name, KeyType: type });
const throughput = { ReadCapacityUnits: 1, WriteCapacityUnits: 1 };

/** The tables every server gets before the cases run. */
export const tables: readonly Record<string, unknown>[] = [
  {
    TableName: 'hash',
    AttributeDefinitions: [definition('a')],
    KeySchema: [key('a', 'HASH')],
    ProvisionedThroughput: throughput,
  },
  {
    TableName: 'range',
    AttributeDefinitions: [definition('a'), definition('b'), definition('c'), definition('d')],
    KeySchema: [key('a', 'HASH'), key('b', 'RANGE')],
    ProvisionedThroughput: throughput,
    LocalSecondaryIndexes: [
      {
        IndexName: 'lsi',
        KeySchema: [key('a', 'HASH'), key('c', 'RANGE')],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'gsi',
        KeySchema: [key('d', 'HASH'), key('c', 'RANGE')],
        Projection: { ProjectionType: 'ALL' },
        ProvisionedThroughput: throughput,
      },
    ],
  },
  {
    TableName: 'binary',
    AttributeDefinitions: [definition('pk', 'B')],
    KeySchema: [key('pk', 'HASH')],
    ProvisionedThroughput: throughput,
  },
];

const value = { ':a': S('1') };
const arn = (name: string) => `arn:aws:dynamodb:us-east-1:000000000000:table/${name}`;

/** Texts of dynalite's era that DynamoDB still answers (and eddy with it). */
export const dynaliteCases: readonly Case[] = [
  // 1. Query and Scan validation order (recorded in dynalite's tests/query.js, tests/scan.js).
  {
    family: 'order',
    name: 'Scan: a ScanFilter argument count before a bad start key',
    operation: 'Scan',
    body: {
      TableName: 'range',
      ScanFilter: { x: { ComparisonOperator: 'EQ' } },
      ExclusiveStartKey: { a: {} },
    },
  },
  {
    family: 'order',
    name: 'Scan: AttributesToGet duplicates before ScanFilter values and the start key',
    operation: 'Scan',
    body: {
      TableName: 'range',
      Segment: 1,
      ScanFilter: { a: { ComparisonOperator: 'EQ', AttributeValueList: [{}, { S: '' }] } },
      ExclusiveStartKey: { a: {} },
      AttributesToGet: ['a', 'a'],
    },
  },
  {
    family: 'order',
    name: 'Query: a QueryFilter type before the missing key condition',
    operation: 'Query',
    body: {
      TableName: 'range',
      QueryFilter: { x: { ComparisonOperator: 'LT', AttributeValueList: [{ SS: ['a'] }] } },
    },
  },
  {
    family: 'order',
    name: 'Query: QueryFilter arguments before the start key values',
    operation: 'Query',
    body: {
      TableName: 'range',
      ExclusiveStartKey: { a: {} },
      KeyConditions: { a: { ComparisonOperator: 'EQ', AttributeValueList: [{}] } },
      QueryFilter: { a: { ComparisonOperator: 'BETWEEN' } },
    },
  },
  {
    family: 'order',
    name: 'Query: more than ten constraint violations report the same ten',
    operation: 'Query',
    entries: true,
    body: {
      TableName: 'abc;',
      ReturnConsumedCapacity: 'hi',
      AttributesToGet: [],
      IndexName: 'a;',
      Select: 'hi',
      KeyConditions: { a: {}, b: { ComparisonOperator: '' } },
      ConditionalOperator: 'AN',
      QueryFilter: { a: {}, b: { ComparisonOperator: '' } },
    },
  },
  {
    family: 'order',
    name: 'Scan: more than ten constraint violations report the same ten',
    operation: 'Scan',
    entries: true,
    body: {
      TableName: 'a;',
      ReturnConsumedCapacity: 'hi',
      AttributesToGet: [],
      IndexName: 'a;',
      Select: 'hi',
      ScanFilter: { a: {}, b: { ComparisonOperator: '' }, c: {} },
      ConditionalOperator: 'AN',
    },
  },
  // 2. Key-condition messages (dynalite's tests/query.js).
  {
    family: 'key conditions',
    name: 'KeyConditions with NULL on a non-key attribute miss the partition key',
    operation: 'Query',
    body: { TableName: 'range', KeyConditions: { c: { ComparisonOperator: 'NULL' } } },
  },
  {
    family: 'key conditions',
    name: 'the partition key and a NULL on another attribute miss the sort key',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditions: {
        a: { ComparisonOperator: 'EQ', AttributeValueList: [S('1')] },
        c: { ComparisonOperator: 'NULL' },
      },
    },
  },
  {
    family: 'key conditions',
    name: 'NULL on the partition key is not indexable',
    operation: 'Query',
    body: { TableName: 'range', KeyConditions: { a: { ComparisonOperator: 'NULL' } } },
  },
  {
    family: 'key conditions',
    name: 'two conditions on a table without a sort key are not supported',
    operation: 'Query',
    body: {
      TableName: 'hash',
      KeyConditionExpression: 'y = :a and z = :a',
      ExpressionAttributeValues: value,
    },
  },
  {
    family: 'key conditions',
    name: 'a start key outside the sort-key condition',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a and b > :b',
      ExpressionAttributeValues: { ':a': S('1'), ':b': S('m') },
      ExclusiveStartKey: { a: S('1'), b: S('a') },
    },
  },
  {
    family: 'key conditions',
    name: 'a start key of another partition with a sort-key condition',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a and b < :a',
      ExpressionAttributeValues: { ':a': S('b') },
      ExclusiveStartKey: { a: S('a'), b: S('a') },
    },
  },
  {
    family: 'key conditions',
    name: 'a start key of another partition without a sort-key condition',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a',
      ExpressionAttributeValues: value,
      ExclusiveStartKey: { a: S('2'), b: S('a') },
    },
  },
  {
    family: 'key conditions',
    name: 'a full-key condition whose start key is in the partition resumes',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a and b = :b',
      ExpressionAttributeValues: { ':a': S('1'), ':b': S('m') },
      ExclusiveStartKey: { a: S('1'), b: S('m') },
    },
  },
  {
    family: 'key conditions',
    name: 'a start key with too few attributes',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a',
      ExpressionAttributeValues: value,
      ExclusiveStartKey: { a: S('1') },
    },
  },
  {
    family: 'key conditions',
    name: 'a GSI start key of the wrong type',
    operation: 'Query',
    body: {
      TableName: 'range',
      IndexName: 'gsi',
      KeyConditionExpression: 'd = :a',
      ExpressionAttributeValues: value,
      ExclusiveStartKey: { a: S('1'), b: S('1'), c: { N: '1' }, d: S('1') },
    },
  },
  {
    family: 'key conditions',
    name: 'an index Scan start key with too few attributes',
    operation: 'Scan',
    body: { TableName: 'range', IndexName: 'gsi', ExclusiveStartKey: { a: S('1') } },
  },
  {
    family: 'key conditions',
    name: 'a FilterExpression on the sort key',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a',
      FilterExpression: 'b = :a',
      ExpressionAttributeValues: value,
    },
  },
  {
    family: 'key conditions',
    name: "a FilterExpression on an LSI's sort key",
    operation: 'Query',
    body: {
      TableName: 'range',
      IndexName: 'lsi',
      KeyConditionExpression: 'a = :a',
      FilterExpression: 'c = :a',
      ExpressionAttributeValues: value,
    },
  },
  {
    family: 'key conditions',
    name: 'a QueryFilter on the sort key',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditions: { a: { ComparisonOperator: 'EQ', AttributeValueList: [S('1')] } },
      QueryFilter: { b: { ComparisonOperator: 'NULL' } },
    },
  },
  {
    family: 'key conditions',
    name: 'an empty FilterExpression before a key condition naming two attributes',
    operation: 'Query',
    body: { TableName: 'range', KeyConditionExpression: 'a = sth', FilterExpression: '' },
  },
  {
    family: 'key conditions',
    name: 'an empty FilterExpression before OR in the key condition',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a OR a = :a',
      FilterExpression: '',
      ExpressionAttributeValues: value,
    },
  },
  ...(
    [
      ['a.b = :a', 'nested attributes'],
      ['size(a) = :a', 'nested operations'],
      [':a = :a', 'no key attribute'],
      ['a = :a and b = :a and c = :a', 'three conditions'],
      ['a = :a and a = :a', 'two conditions on one key'],
      ['a = :a and BEGINS_WITH(b, :a)', 'an unknown function'],
    ] as const
  ).map(
    ([expression, what]): Case => ({
      family: 'key conditions',
      name: `a KeyConditionExpression with ${what}`,
      operation: 'Query',
      body: { TableName: 'range', KeyConditionExpression: expression, ExpressionAttributeValues: value },
    }),
  ),
  {
    family: 'key conditions',
    name: 'a key condition value of the wrong type',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a',
      ExpressionAttributeValues: { ':a': { N: '1' } },
    },
  },
  // 4. Tags (dynalite's tests/listTagsOfResource.js, tagResource.js, untagResource.js).
  ...['ListTagsOfResource', 'TagResource', 'UntagResource'].flatMap((operation): Case[] => {
    const rest =
      operation === 'TagResource'
        ? { Tags: [{ Key: 'k', Value: 'v' }] }
        : operation === 'UntagResource'
          ? { TagKeys: ['k'] }
          : {};
    // Success bodies are left out but for ListTagsOfResource: dynalite answers TagResource `""`.
    const resources = ['', 'abcd', 'a:b:c:d:e:f', 'a:b:c:d:e/f', 'a:b:c:d:e:f/g', arn('ab'), arn('missing')];
    if (operation === 'ListTagsOfResource') resources.push(arn('hash'));
    return resources.map((resource) => ({
      family: 'tags',
      name: `${operation} on ${JSON.stringify(resource)}`,
      operation,
      body: { ResourceArn: resource, ...rest },
    }));
  }),
  // 5. Names and constraint lists.
  {
    family: 'names',
    name: 'BatchGetItem echoes the request map for a bad table name',
    operation: 'BatchGetItem',
    body: { RequestItems: { 'bad!name': { Keys: [{ pk: S('a') }] } } },
  },
  {
    family: 'names',
    name: 'CreateTable without TableName',
    operation: 'CreateTable',
    body: {
      AttributeDefinitions: [definition('pk')],
      KeySchema: [key('pk', 'HASH')],
      ProvisionedThroughput: throughput,
    },
  },
  // 7. Serialization (dynalite's tests/helpers.js and validations/index.js).
  ...['=+/=', '+/+=', 'YQ=a', '23456'].map(
    (text): Case => ({
      family: 'serialization',
      name: `B ${JSON.stringify(text)}`,
      operation: 'PutItem',
      body: { TableName: 'hash', Item: { a: S('x'), b: { B: text } } },
    }),
  ),
  ...['yes', 'No', '1', 'maybe'].map(
    (text): Case => ({
      family: 'serialization',
      name: `BOOL ${JSON.stringify(text)}, read back`,
      operation: 'GetItem',
      before: [['PutItem', { TableName: 'hash', Item: { a: S(`bool-${text}`), b: { BOOL: text } } }]],
      body: { TableName: 'hash', Key: { a: S(`bool-${text}`) } },
    }),
  ),
  {
    family: 'serialization',
    name: 'BatchWriteItem RequestItems as an array names the Java types',
    operation: 'BatchWriteItem',
    body: { RequestItems: [] },
  },
  {
    family: 'serialization',
    name: 'BatchWriteItem Put of a key of the wrong type',
    operation: 'BatchWriteItem',
    body: { RequestItems: { hash: [{ PutRequest: { Item: { a: { N: '5' } } } }] } },
  },
];

/**
 * Texts and behaviours where eddy follows evidence newer than dynalite's: the 2026 recordings of
 * nubo-db/dynamodb-conformance (tests/tier3/error-messages/*.test.ts), moto's aws_verified
 * tests, the API reference.
 */
export const newerThanDynalite: readonly NewerCase[] = [
  {
    family: 'order',
    name: 'Scan Segment not below TotalSegments',
    operation: 'Scan',
    body: { TableName: 'hash', Segment: 5, TotalSegments: 5 },
    eddy: {
      error: 'ValidationException',
      message: 'The Segment parameter is zero-based and must be less than parameter TotalSegments',
      evidence: 'conformance scan.test.ts, September 2026',
    },
    reference: {
      error: 'ValidationException',
      message:
        'The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 5 is not less than TotalSegments: 5',
    },
  },
  {
    family: 'order',
    name: 'Query Limit 0',
    operation: 'Query',
    body: { TableName: 'hash', KeyConditionExpression: 'a = :a', ExpressionAttributeValues: value, Limit: 0 },
    eddy: {
      error: 'ValidationException',
      message:
        "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
      evidence: 'conformance query.test.ts, 2026',
    },
    reference: {
      error: 'ValidationException',
      message:
        "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
    },
  },
  {
    family: 'key conditions',
    name: 'Scan start key naming another attribute',
    operation: 'Scan',
    body: { TableName: 'hash', ExclusiveStartKey: { bad: S('p') } },
    eddy: {
      error: 'ValidationException',
      message: 'The provided starting key is invalid',
      evidence: 'conformance scan.test.ts, September 2026',
    },
    reference: {
      error: 'ValidationException',
      message: 'The provided starting key is invalid: The provided key element does not match the schema',
    },
  },
  {
    family: 'key conditions',
    name: 'an empty string in a key condition',
    operation: 'Query',
    body: { TableName: 'hash', KeyConditionExpression: 'a = :a', ExpressionAttributeValues: { ':a': S('') } },
    eddy: {
      error: 'ValidationException',
      message:
        'One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: a',
      evidence: "moto's KeyIsEmptyStringException (issue #25)",
    },
    reference: { error: 'OK', message: '' },
  },
  {
    family: 'names',
    name: 'BatchGetItem with no table',
    operation: 'BatchGetItem',
    body: { RequestItems: {} },
    eddy: {
      error: 'ValidationException',
      message:
        "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1",
      evidence: 'conformance batchGetItem.test.ts, August 2026',
    },
    reference: {
      error: 'ValidationException',
      message:
        "1 validation error detected: Value '{}' at 'requestItems' failed to satisfy constraint: Member must have length greater than or equal to 1",
    },
  },
  {
    family: 'names',
    name: 'GetItem with an empty binary key',
    operation: 'GetItem',
    body: { TableName: 'binary', Key: { pk: { B: '' } } },
    eddy: {
      error: 'ValidationException',
      message:
        'One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: pk',
      evidence: 'conformance getItem.test.ts, 2026',
    },
    reference: {
      error: 'ValidationException',
      message:
        'One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty binary value. Key: pk',
    },
  },
  ...[false, 'no'].map(
    (flag): NewerCase => ({
      family: 'serialization',
      name: `NULL ${JSON.stringify(flag)} in an item`,
      operation: 'PutItem',
      body: { TableName: 'hash', Item: { a: S(`null-${flag}`), b: { NULL: flag } } },
      eddy: { error: 'OK', message: '', evidence: 'conformance putItem.test.ts, June 2026' },
      reference: {
        error: 'ValidationException',
        message:
          'One or more parameter values were invalid: Null attribute value types must have the value of true',
      },
    }),
  ),
  {
    family: 'tags',
    name: 'ListTagsOfResource on an index ARN',
    operation: 'ListTagsOfResource',
    body: { ResourceArn: `${arn('range')}/index/gsi` },
    eddy: {
      error: 'ValidationException',
      message: `One or more parameter values were invalid: Invalid resource arn provided, only table or stream is accepted. Provided resource arn: ${arn('range')}/index/gsi`,
      evidence: 'scylladb test/alternator/test_tag.py, January 2026',
    },
    reference: {
      error: 'ValidationException',
      message: `Invalid TableArn: Invalid ResourceArn provided as input ${arn('range')}/index/gsi`,
    },
  },
];

/**
 * Texts moto's `aws_verified` tests recorded against DynamoDB, which moto 5.2.1 answers too
 * (tests/test_dynamodb/exceptions/test_dynamodb_transactions.py, test_dynamodb_exceptions.py and
 * test_dynamodb_create_table.py of getmoto/moto).
 */
export const motoCases: readonly Case[] = [
  {
    family: 'transactions',
    name: 'an Update whose key is an empty string',
    operation: 'TransactWriteItems',
    body: {
      TransactItems: [
        {
          Update: {
            TableName: 'hash',
            Key: { a: S('') },
            UpdateExpression: 'SET sth = :v',
            ExpressionAttributeValues: { ':v': { N: '0' } },
          },
        },
      ],
    },
  },
  {
    family: 'transactions',
    name: 'a Put and a Delete of one item',
    operation: 'TransactWriteItems',
    body: {
      TransactItems: [
        { Put: { TableName: 'range', Item: { a: S('p'), b: S('s'), field: S('f') } } },
        { Delete: { TableName: 'range', Key: { a: S('p'), b: S('s') } } },
      ],
    },
  },
  {
    family: 'transactions',
    name: 'an UpdateExpression with two SET clauses',
    operation: 'TransactWriteItems',
    body: {
      TransactItems: [
        {
          Update: {
            TableName: 'range',
            Key: { a: S('s'), b: S('t') },
            UpdateExpression: 'SET x = :x SET y = :t ADD version :one',
            ExpressionAttributeValues: { ':t': { BOOL: true }, ':one': { N: '1' }, ':x': S('asdf') },
          },
        },
      ],
    },
  },
  // tests/test_dynamodb/test_dynamodb_create_table.py, test_create_table__specify_non_key_column
  ...(
    [
      ['the table', {}, [key('pk', 'HASH'), key('sk', 'SORT')]],
      [
        'a global index',
        {
          GlobalSecondaryIndexes: [
            {
              IndexName: 'TestGSI',
              KeySchema: [key('n/a', 'HASH'), key('sth', 'SORT')],
              Projection: { ProjectionType: 'ALL' },
              ProvisionedThroughput: throughput,
            },
          ],
        },
        [key('pk', 'HASH'), key('sk', 'RANGE')],
      ],
      [
        'a local index',
        {
          LocalSecondaryIndexes: [
            {
              IndexName: 'test_lsi',
              KeySchema: [key('pk', 'HASH'), key('lsi_range_key', 'SORT')],
              Projection: { ProjectionType: 'ALL' },
            },
          ],
        },
        [key('pk', 'HASH'), key('sk', 'RANGE')],
      ],
    ] as const
  ).map(
    ([where, indexes, keySchema]): Case => ({
      family: 'names',
      name: `KeyType SORT in ${where}`,
      operation: 'CreateTable',
      body: {
        TableName: 'unknown-key-type',
        KeySchema: keySchema,
        AttributeDefinitions: [definition('pk'), definition('sk')],
        ProvisionedThroughput: throughput,
        ...indexes,
      },
    }),
  ),
  {
    family: 'key conditions',
    name: 'an empty FilterExpression',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a',
      FilterExpression: '',
      ExpressionAttributeValues: value,
    },
  },
  {
    family: 'key conditions',
    name: 'a key condition on neither key',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'y = :a and z = :a',
      ExpressionAttributeValues: value,
    },
  },
  {
    family: 'key conditions',
    name: 'the partition key and an attribute that is not the sort key',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a and z = :a',
      ExpressionAttributeValues: value,
    },
  },
  {
    family: 'key conditions',
    name: 'a partition key compared with >',
    operation: 'Query',
    body: { TableName: 'hash', KeyConditionExpression: 'a > :a', ExpressionAttributeValues: value },
  },
  {
    family: 'key conditions',
    name: 'an empty string in a key condition',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a',
      ExpressionAttributeValues: { ':a': S('') },
    },
  },
  {
    family: 'key conditions',
    name: 'a function name in the wrong case',
    operation: 'Query',
    body: {
      TableName: 'range',
      KeyConditionExpression: 'a = :a and BEGINS_WITH(b, :a)',
      ExpressionAttributeValues: value,
    },
  },
];
