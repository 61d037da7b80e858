import { UnknownOperationException } from '../../core/errors/index.js';
import { DYNAMODB_TARGET_PREFIX, STREAMS_TARGET_PREFIX } from './services.js';

/**
 * Every operation of the DynamoDB and DynamoDB Streams APIs, as the AWS SDK for JavaScript v3
 * (`@aws-sdk/client-dynamodb` 3.1162.0, `@aws-sdk/client-dynamodb-streams`) lists its commands.
 * An unknown target answers `UnknownOperationException` without a message, as the service does
 * (docs/dynamodb.md §1.2.5); one of these that eddy does not serve gets a message naming it, so
 * a user learns it is eddy's gap, not a typo (README, "Operations eddy does not serve").
 */
export const API_OPERATIONS: Readonly<Record<string, readonly string[]>> = {
  [DYNAMODB_TARGET_PREFIX]: [
    'BatchExecuteStatement',
    'BatchGetItem',
    'BatchWriteItem',
    'CancelBulkOperation',
    'CreateBackup',
    'CreateGlobalTable',
    'CreateTable',
    'DeleteBackup',
    'DeleteItem',
    'DeleteResourcePolicy',
    'DeleteTable',
    'DescribeBackup',
    'DescribeBulkOperation',
    'DescribeContinuousBackups',
    'DescribeContributorInsights',
    'DescribeEndpoints',
    'DescribeExport',
    'DescribeGlobalTable',
    'DescribeGlobalTableSettings',
    'DescribeImport',
    'DescribeKinesisStreamingDestination',
    'DescribeLimits',
    'DescribeTable',
    'DescribeTableReplicaAutoScaling',
    'DescribeTimeToLive',
    'DisableKinesisStreamingDestination',
    'EnableKinesisStreamingDestination',
    'ExecuteStatement',
    'ExecuteTransaction',
    'ExportTableToPointInTime',
    'GetItem',
    'GetResourcePolicy',
    'ImportTable',
    'ListBackups',
    'ListBulkOperations',
    'ListContributorInsights',
    'ListExports',
    'ListGlobalTables',
    'ListImports',
    'ListTables',
    'ListTagsOfResource',
    'PutItem',
    'PutResourcePolicy',
    'Query',
    'RestoreTableFromBackup',
    'RestoreTableToPointInTime',
    'Scan',
    'SearchVectors',
    'StartBulkPutItems',
    'TagResource',
    'TransactGetItems',
    'TransactWriteItems',
    'UntagResource',
    'UpdateContinuousBackups',
    'UpdateContributorInsights',
    'UpdateGlobalTable',
    'UpdateGlobalTableSettings',
    'UpdateItem',
    'UpdateKinesisStreamingDestination',
    'UpdateTable',
    'UpdateTableReplicaAutoScaling',
    'UpdateTimeToLive',
  ],
  [STREAMS_TARGET_PREFIX]: ['DescribeStream', 'GetRecords', 'GetShardIterator', 'ListStreams'],
};

/** The error for a target eddy does not answer: with a message when the API has the operation. */
export function unknownOperation(target: string): UnknownOperationException {
  const dot = target.indexOf('.');
  if (dot === -1) return new UnknownOperationException();
  const prefix = target.slice(0, dot);
  const operation = target.slice(dot + 1);
  const known = Object.hasOwn(API_OPERATIONS, prefix) ? API_OPERATIONS[prefix] : undefined;
  if (known === undefined || !known.includes(operation)) return new UnknownOperationException();
  return new UnknownOperationException(
    `${operation} is an operation of the ${prefix === STREAMS_TARGET_PREFIX ? 'DynamoDB Streams' : 'DynamoDB'} API that eddy does not implement`,
  );
}
