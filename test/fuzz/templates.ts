/**
 * A valid request for every operation of both APIs, against the fuzz fixture: the fuzzer starts
 * from these and mutates them, so most cases get past the first checks and reach deep code.
 */

export const DYNAMODB = 'DynamoDB_20120810';
export const STREAMS = 'DynamoDBStreams_20120810';

/** What templates need from the live fixture (it changes when the fixture is rebuilt). */
export interface FixtureRefs {
  readonly tableArn: string;
  readonly streamArn: string;
  readonly shardId: string;
  readonly sequenceNumber: string;
  readonly shardIterator: string;
}

export interface Template {
  /** `DynamoDB_20120810.PutItem`, ... */
  readonly target: string;
  /** Whether a success may change state (a refused one must not). */
  readonly write: boolean;
  readonly body: (refs: FixtureRefs) => Record<string, unknown>;
}

const key = { pk: { S: 'a' }, sk: { N: '1' } };
const item = {
  ...key,
  color: { S: 'red' },
  score: { N: '7' },
  doc: {
    M: {
      list: { L: [{ N: '1' }, { S: 'x' }, { BOOL: true }, { NULL: true }] },
      set: { SS: ['a', 'b'] },
      nums: { NS: ['1', '2.5'] },
      bin: { B: 'AAEC' },
    },
  },
};
const names = { '#c': 'color' };

function dynamodb(operation: string, write: boolean, body: Template['body']): Template {
  return { target: `${DYNAMODB}.${operation}`, write, body };
}
function streams(operation: string, body: Template['body']): Template {
  return { target: `${STREAMS}.${operation}`, write: false, body };
}

const TABLE_ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Fuzz';
const KINESIS_STREAM_ARN = 'arn:aws:kinesis:us-east-1:000000000000:stream/fuzz-changes';

export const TEMPLATES: readonly Template[] = [
  dynamodb('PutItem', true, () => ({
    TableName: 'Fuzz',
    Item: item,
    ConditionExpression: 'attribute_not_exists(pk) OR #c = :c',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ':c': { S: 'red' } },
    ReturnValues: 'ALL_OLD',
    ReturnConsumedCapacity: 'TOTAL',
    ReturnItemCollectionMetrics: 'SIZE',
  })),
  dynamodb('PutItem', true, () => ({
    TableName: 'Plain',
    Item: { id: { S: 'p1' }, n: { N: '1' } },
    Expected: { n: { ComparisonOperator: 'LE', AttributeValueList: [{ N: '5' }] } },
    ConditionalOperator: 'AND',
  })),
  dynamodb('GetItem', false, () => ({
    TableName: 'Fuzz',
    Key: key,
    ProjectionExpression: '#c, doc.list[0], doc.#s',
    ExpressionAttributeNames: { ...names, '#s': 'set' },
    ConsistentRead: true,
  })),
  dynamodb('GetItem', false, () => ({
    TableName: 'Plain',
    Key: { id: { S: 'p1' } },
    AttributesToGet: ['id'],
  })),
  dynamodb('UpdateItem', true, () => ({
    TableName: 'Fuzz',
    Key: key,
    UpdateExpression:
      'SET #c = :c, counter = if_not_exists(counter, :zero) + :one, doc.list[1] = :c, more = list_append(:l, :l) REMOVE gone, doc.nums ADD tags :t DELETE doc.#s :t',
    ConditionExpression: 'size(#c) < :n AND NOT begins_with(#c, :c)',
    ExpressionAttributeNames: { ...names, '#s': 'set' },
    ExpressionAttributeValues: {
      ':c': { S: 'blue' },
      ':zero': { N: '0' },
      ':one': { N: '1' },
      ':t': { SS: ['x'] },
      ':n': { N: '10' },
      ':l': { L: [{ S: 'l' }] },
    },
    ReturnValues: 'UPDATED_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  })),
  dynamodb('UpdateItem', true, () => ({
    TableName: 'Plain',
    Key: { id: { S: 'p2' } },
    AttributeUpdates: { n: { Action: 'ADD', Value: { N: '1' } }, gone: { Action: 'DELETE' } },
    Expected: { id: { Exists: false } },
    ReturnValues: 'ALL_NEW',
  })),
  dynamodb('DeleteItem', true, () => ({
    TableName: 'Fuzz',
    Key: { pk: { S: 'b' }, sk: { N: '2' } },
    ConditionExpression: 'attribute_exists(pk) AND #c IN (:a, :b) AND score BETWEEN :lo AND :hi',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: {
      ':a': { S: 'red' },
      ':b': { S: 'green' },
      ':lo': { N: '0' },
      ':hi': { N: '100' },
    },
    ReturnValues: 'ALL_OLD',
  })),
  dynamodb('Query', false, () => ({
    TableName: 'Fuzz',
    KeyConditionExpression: 'pk = :p AND sk BETWEEN :lo AND :hi',
    FilterExpression: 'contains(#c, :r) OR attribute_type(doc, :m)',
    ProjectionExpression: 'pk, sk, #c',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: {
      ':p': { S: 'a' },
      ':lo': { N: '0' },
      ':hi': { N: '9' },
      ':r': { S: 'e' },
      ':m': { S: 'M' },
    },
    Limit: 10,
    ScanIndexForward: false,
    ExclusiveStartKey: key,
    ReturnConsumedCapacity: 'INDEXES',
  })),
  dynamodb('Query', false, () => ({
    TableName: 'Fuzz',
    IndexName: 'ByColor',
    KeyConditions: { color: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'red' }] } },
    QueryFilter: { score: { ComparisonOperator: 'GT', AttributeValueList: [{ N: '1' }] } },
    Select: 'ALL_PROJECTED_ATTRIBUTES',
  })),
  dynamodb('Query', false, () => ({
    TableName: 'Fuzz',
    IndexName: 'ByScore',
    KeyConditionExpression: 'pk = :p AND score >= :s',
    ExpressionAttributeValues: { ':p': { S: 'a' }, ':s': { N: '1' } },
    Select: 'COUNT',
  })),
  dynamodb('Scan', false, () => ({
    TableName: 'Fuzz',
    FilterExpression: 'begins_with(#c, :r) AND size(doc) > :z',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ':r': { S: 'r' }, ':z': { N: '0' } },
    Segment: 0,
    TotalSegments: 2,
    Limit: 5,
  })),
  dynamodb('Scan', false, () => ({
    TableName: 'Fuzz',
    IndexName: 'ByColor',
    ScanFilter: { color: { ComparisonOperator: 'IN', AttributeValueList: [{ S: 'red' }, { S: 'blue' }] } },
    AttributesToGet: ['pk', 'color'],
    ConditionalOperator: 'OR',
    ExclusiveStartKey: { ...key, color: { S: 'red' } },
  })),
  dynamodb('BatchGetItem', false, () => ({
    RequestItems: {
      Fuzz: {
        Keys: [key, { pk: { S: 'b' }, sk: { N: '2' } }],
        ProjectionExpression: 'pk, #c',
        ExpressionAttributeNames: names,
      },
      Plain: { Keys: [{ id: { S: 'p1' } }], ConsistentRead: true },
    },
    ReturnConsumedCapacity: 'TOTAL',
  })),
  dynamodb('BatchWriteItem', true, () => ({
    RequestItems: {
      Fuzz: [
        { PutRequest: { Item: { ...item, pk: { S: 'c' } } } },
        { DeleteRequest: { Key: { pk: { S: 'd' }, sk: { N: '4' } } } },
      ],
      Plain: [{ PutRequest: { Item: { id: { S: 'p9' } } } }],
    },
    ReturnItemCollectionMetrics: 'SIZE',
  })),
  dynamodb('TransactWriteItems', true, () => ({
    TransactItems: [
      {
        Put: {
          TableName: 'Plain',
          Item: { id: { S: 'p3' }, n: { N: '3' } },
          ConditionExpression: 'attribute_not_exists(id)',
        },
      },
      {
        Update: {
          TableName: 'Fuzz',
          Key: key,
          UpdateExpression: 'SET score = score + :one',
          ExpressionAttributeValues: { ':one': { N: '1' } },
        },
      },
      { Delete: { TableName: 'Plain', Key: { id: { S: 'p4' } } } },
      {
        ConditionCheck: {
          TableName: 'Fuzz',
          Key: { pk: { S: 'b' }, sk: { N: '2' } },
          ConditionExpression: 'attribute_exists(#c)',
          ExpressionAttributeNames: names,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ],
    ClientRequestToken: 'fuzz-token',
    ReturnConsumedCapacity: 'TOTAL',
  })),
  dynamodb('TransactGetItems', false, () => ({
    TransactItems: [
      { Get: { TableName: 'Fuzz', Key: key, ProjectionExpression: '#c', ExpressionAttributeNames: names } },
      { Get: { TableName: 'Plain', Key: { id: { S: 'p1' } } } },
    ],
  })),
  dynamodb('CreateTable', true, () => ({
    TableName: 'Scratch',
    AttributeDefinitions: [
      { AttributeName: 'h', AttributeType: 'S' },
      { AttributeName: 'r', AttributeType: 'N' },
      { AttributeName: 'g', AttributeType: 'B' },
    ],
    KeySchema: [
      { AttributeName: 'h', KeyType: 'HASH' },
      { AttributeName: 'r', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'G',
        KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['x'] },
      },
    ],
    LocalSecondaryIndexes: [
      {
        IndexName: 'L',
        KeySchema: [
          { AttributeName: 'h', KeyType: 'HASH' },
          { AttributeName: 'g', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    Tags: [{ Key: 'team', Value: 'fuzz' }],
  })),
  dynamodb('CreateTable', true, () => ({
    TableName: 'Scratch',
    AttributeDefinitions: [{ AttributeName: 'h', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'h', KeyType: 'HASH' }],
    ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
  })),
  dynamodb('DeleteTable', true, () => ({ TableName: 'Scratch' })),
  dynamodb('DescribeTable', false, () => ({ TableName: 'Fuzz' })),
  dynamodb('DescribeLimits', false, () => ({})),
  dynamodb('ListTables', false, () => ({ Limit: 10, ExclusiveStartTableName: 'A' })),
  dynamodb('ListTagsOfResource', false, (refs) => ({ ResourceArn: refs.tableArn })),
  dynamodb('TagResource', true, (refs) => ({ ResourceArn: refs.tableArn, Tags: [{ Key: 'k', Value: 'v' }] })),
  dynamodb('UntagResource', true, (refs) => ({ ResourceArn: refs.tableArn, TagKeys: ['env'] })),
  dynamodb('PutResourcePolicy', true, (refs) => ({
    ResourceArn: refs.tableArn,
    Policy: JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Principal: { AWS: '000000000000' }, Action: ['dynamodb:GetItem'], Resource: '*' },
      ],
    }),
    ExpectedRevisionId: 'NO_POLICY',
  })),
  dynamodb('GetResourcePolicy', false, (refs) => ({ ResourceArn: refs.tableArn })),
  dynamodb('DeleteResourcePolicy', true, (refs) => ({ ResourceArn: refs.tableArn, ExpectedRevisionId: '1' })),
  dynamodb('UpdateTable', true, () => ({
    TableName: 'Fuzz',
    AttributeDefinitions: [{ AttributeName: 'size', AttributeType: 'N' }],
    GlobalSecondaryIndexUpdates: [
      {
        Create: {
          IndexName: 'BySize',
          KeySchema: [{ AttributeName: 'size', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      },
    ],
  })),
  dynamodb('UpdateTable', true, () => ({
    TableName: 'Plain',
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    DeletionProtectionEnabled: false,
  })),
  // Global tables (docs/global-tables.md).
  dynamodb('UpdateTable', true, () => ({
    TableName: 'Plain',
    ReplicaUpdates: [{ Create: { RegionName: 'us-west-2', TableClassOverride: 'STANDARD' } }],
  })),
  dynamodb('DescribeTableReplicaAutoScaling', false, () => ({ TableName: 'Fuzz' })),
  // Kinesis Data Streams destinations (docs/kinesis-destinations.md): the fuzz target has no Kinesis
  // endpoint, so an Enable goes ENABLE_FAILED; never a 5xx.
  dynamodb('EnableKinesisStreamingDestination', true, () => ({
    TableName: 'Fuzz',
    StreamArn: KINESIS_STREAM_ARN,
    EnableKinesisStreamingConfiguration: { ApproximateCreationDateTimePrecision: 'MILLISECOND' },
  })),
  dynamodb('DescribeKinesisStreamingDestination', false, () => ({ TableName: 'Fuzz' })),
  dynamodb('UpdateKinesisStreamingDestination', true, () => ({
    TableName: 'Fuzz',
    StreamArn: KINESIS_STREAM_ARN,
    UpdateKinesisStreamingConfiguration: { ApproximateCreationDateTimePrecision: 'MICROSECOND' },
  })),
  dynamodb('DisableKinesisStreamingDestination', true, () => ({
    TableName: 'Fuzz',
    StreamArn: KINESIS_STREAM_ARN,
  })),
  // Contributor Insights and DescribeEndpoints (docs/contributor-insights-and-endpoints.md).
  dynamodb('UpdateContributorInsights', true, () => ({
    TableName: 'Fuzz',
    ContributorInsightsAction: 'ENABLE',
  })),
  dynamodb('DescribeContributorInsights', false, () => ({ TableName: 'Fuzz' })),
  dynamodb('ListContributorInsights', false, () => ({ TableName: 'Fuzz', MaxResults: 10 })),
  dynamodb('DescribeEndpoints', false, () => ({})),
  dynamodb('UpdateTableReplicaAutoScaling', true, () => ({
    TableName: 'Fuzz',
    ProvisionedWriteCapacityAutoScalingUpdate: {
      MinimumUnits: 1,
      MaximumUnits: 5,
      AutoScalingDisabled: false,
    },
    ReplicaUpdates: [
      {
        RegionName: 'us-west-2',
        ReplicaProvisionedReadCapacityAutoScalingUpdate: { AutoScalingDisabled: true },
      },
    ],
  })),
  dynamodb('CreateGlobalTable', true, () => ({
    GlobalTableName: 'Fuzz',
    ReplicationGroup: [{ RegionName: 'us-west-2' }],
  })),
  dynamodb('UpdateGlobalTable', true, () => ({
    GlobalTableName: 'Fuzz',
    ReplicaUpdates: [{ Create: { RegionName: 'us-west-2' } }],
  })),
  dynamodb('DescribeGlobalTable', false, () => ({ GlobalTableName: 'Fuzz' })),
  dynamodb('DescribeGlobalTableSettings', false, () => ({ GlobalTableName: 'Fuzz' })),
  dynamodb('UpdateGlobalTableSettings', true, () => ({
    GlobalTableName: 'Fuzz',
    GlobalTableBillingMode: 'PAY_PER_REQUEST',
  })),
  dynamodb('ListGlobalTables', false, () => ({ Limit: 5, RegionName: 'us-east-1' })),
  dynamodb('DescribeTimeToLive', false, () => ({ TableName: 'Fuzz' })),
  dynamodb('UpdateTimeToLive', true, () => ({
    TableName: 'Plain',
    TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
  })),
  // Backups, point-in-time recovery, exports and imports (docs/backups.md). The fuzz target has no
  // bucket: exports and imports must be refused with the service's error, never a 5xx.
  dynamodb('CreateBackup', true, () => ({ TableName: 'Fuzz', BackupName: 'fuzz-backup' })),
  dynamodb('DescribeBackup', false, () => ({ BackupArn: `${TABLE_ARN}/backup/01700000000000-abcdef12` })),
  dynamodb('ListBackups', false, () => ({ TableName: 'Fuzz', Limit: 10, BackupType: 'ALL' })),
  dynamodb('DeleteBackup', true, () => ({ BackupArn: `${TABLE_ARN}/backup/01700000000000-abcdef12` })),
  dynamodb('RestoreTableFromBackup', true, () => ({
    TargetTableName: 'Restored',
    BackupArn: `${TABLE_ARN}/backup/01700000000000-abcdef12`,
    BillingModeOverride: 'PAY_PER_REQUEST',
  })),
  dynamodb('DescribeContinuousBackups', false, () => ({ TableName: 'Fuzz' })),
  dynamodb('UpdateContinuousBackups', true, () => ({
    TableName: 'Plain',
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 },
  })),
  dynamodb('RestoreTableToPointInTime', true, () => ({
    SourceTableName: 'Fuzz',
    TargetTableName: 'Restored',
    UseLatestRestorableTime: true,
  })),
  dynamodb('ExportTableToPointInTime', true, () => ({
    TableArn: TABLE_ARN,
    S3Bucket: 'fuzz-bucket',
    ExportFormat: 'DYNAMODB_JSON',
    ExportType: 'FULL_EXPORT',
  })),
  dynamodb('DescribeExport', false, () => ({ ExportArn: `${TABLE_ARN}/export/01700000000000-abcdef12` })),
  dynamodb('ListExports', false, () => ({ TableArn: TABLE_ARN, MaxResults: 5 })),
  dynamodb('ImportTable', true, () => ({
    S3BucketSource: { S3Bucket: 'fuzz-bucket', S3KeyPrefix: 'in/' },
    InputFormat: 'DYNAMODB_JSON',
    InputCompressionType: 'NONE',
    TableCreationParameters: {
      TableName: 'Imported',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    },
  })),
  dynamodb('DescribeImport', false, () => ({ ImportArn: `${TABLE_ARN}/import/01700000000000-abcdef12` })),
  dynamodb('ListImports', false, () => ({ TableArn: TABLE_ARN, PageSize: 5 })),
  // PartiQL (docs/partiql.md): a statement text the mutations edit, with its parameters.
  dynamodb('ExecuteStatement', false, () => ({
    Statement:
      'SELECT pk, sk, color, doc."list"[0] FROM "Fuzz" WHERE pk = ? AND sk BETWEEN ? AND 9 AND (contains(color, \'e\') OR doc IS NOT MISSING) ORDER BY sk DESC',
    Parameters: [{ S: 'a' }, { N: '0' }],
    Limit: 10,
    ConsistentRead: true,
    ReturnConsumedCapacity: 'TOTAL',
  })),
  dynamodb('ExecuteStatement', true, () => ({
    Statement:
      'UPDATE "Fuzz" SET color = ?, score = score + 1, doc."list" = list_append([1], [\'z\']), doc."set" = set_delete(doc."set", <<\'x\'>>) REMOVE gone WHERE pk = \'a\' AND sk = 1 AND attribute_exists(color) RETURNING MODIFIED NEW *',
    Parameters: [{ S: 'blue' }],
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  })),
  dynamodb('BatchExecuteStatement', true, () => ({
    Statements: [
      {
        Statement: "INSERT INTO \"Plain\" VALUE {'id': ?, 'n': 1, 'tags': <<'x', 'y'>>}",
        Parameters: [{ S: 'p9' }],
      },
      { Statement: 'DELETE FROM "Fuzz" WHERE pk = \'b\' AND sk = 2 RETURNING ALL OLD *' },
    ],
    ReturnConsumedCapacity: 'TOTAL',
  })),
  dynamodb('ExecuteTransaction', true, () => ({
    TransactStatements: [
      { Statement: "UPDATE \"Plain\" SET tags = set_add(tags, <<'x'>>) WHERE id = 'p1'" },
      {
        Statement: 'EXISTS(SELECT * FROM "Fuzz" WHERE pk = \'a\' AND sk = 1 AND color = ?)',
        Parameters: [{ S: 'red' }],
      },
    ],
    ClientRequestToken: 'fuzz-token',
    ReturnConsumedCapacity: 'INDEXES',
  })),
  streams('ListStreams', () => ({ TableName: 'Fuzz', Limit: 5 })),
  streams('DescribeStream', (refs) => ({
    StreamArn: refs.streamArn,
    Limit: 10,
    ExclusiveStartShardId: refs.shardId,
  })),
  streams('GetShardIterator', (refs) => ({
    StreamArn: refs.streamArn,
    ShardId: refs.shardId,
    ShardIteratorType: 'AT_SEQUENCE_NUMBER',
    SequenceNumber: refs.sequenceNumber,
  })),
  streams('GetShardIterator', (refs) => ({
    StreamArn: refs.streamArn,
    ShardId: refs.shardId,
    ShardIteratorType: 'TRIM_HORIZON',
  })),
  streams('GetRecords', (refs) => ({ ShardIterator: refs.shardIterator, Limit: 3 })),
];
