import type { OperationDefinition } from '../operation.js';
import { batchExecuteStatement } from './batchExecuteStatement.js';
import { batchGetItem } from './batchGetItem.js';
import { batchWriteItem } from './batchWriteItem.js';
import { createTable } from './createTable.js';
// Backups, PITR, exports and imports (docs/backups.md).
import { dataProtectionOperations } from './dataProtectionOperations.js';
import { deleteItem } from './deleteItem.js';
import { deleteResourcePolicy } from './deleteResourcePolicy.js';
import { deleteTable } from './deleteTable.js';
import { describeContributorInsights } from './describeContributorInsights.js';
import { describeEndpoints } from './describeEndpoints.js';
import { describeKinesisStreamingDestination } from './describeKinesisStreamingDestination.js';
import { describeLimits } from './describeLimits.js';
import { describeTable } from './describeTable.js';
import { describeTableReplicaAutoScaling } from './describeTableReplicaAutoScaling.js';
import { describeTimeToLive } from './describeTimeToLive.js';
import { disableKinesisStreamingDestination } from './disableKinesisStreamingDestination.js';
import { enableKinesisStreamingDestination } from './enableKinesisStreamingDestination.js';
import { executeStatement } from './executeStatement.js';
import { executeTransaction } from './executeTransaction.js';
import { getItem } from './getItem.js';
import { getResourcePolicy } from './getResourcePolicy.js';
import { legacyGlobalTableOperations } from './legacyGlobalTables.js';
import { listContributorInsights } from './listContributorInsights.js';
import { listTables } from './listTables.js';
import { listTagsOfResource } from './listTagsOfResource.js';
import { putItem } from './putItem.js';
import { putResourcePolicy } from './putResourcePolicy.js';
import { query } from './query.js';
import { scan } from './scan.js';
import { tagResource } from './tagResource.js';
import { transactGetItems } from './transactGetItems.js';
import { transactWriteItems } from './transactWriteItems.js';
import { untagResource } from './untagResource.js';
import { updateContributorInsights } from './updateContributorInsights.js';
import { updateItem } from './updateItem.js';
import { updateKinesisStreamingDestination } from './updateKinesisStreamingDestination.js';
import { updateTable } from './updateTable.js';
import { updateTableReplicaAutoScaling } from './updateTableReplicaAutoScaling.js';
import { updateTimeToLive } from './updateTimeToLive.js';

/**
 * Every operation the engine answers, by wire name. One file per operation in this folder, with
 * its twin in `../validations/`. Add an operation: import it above and list it below.
 */
// biome-ignore lint/suspicious/noExplicitAny: each definition carries its own input/output types.
const definitions: OperationDefinition<any, any, any>[] = [
  putItem,
  getItem,
  updateItem,
  deleteItem,
  query,
  scan,
  batchGetItem,
  batchWriteItem,
  transactWriteItems,
  transactGetItems,
  executeStatement,
  batchExecuteStatement,
  executeTransaction,
  createTable,
  deleteTable,
  describeEndpoints,
  describeLimits,
  describeTable,
  listTables,
  listTagsOfResource,
  tagResource,
  untagResource,
  updateTable,
  describeTimeToLive,
  updateTimeToLive,
  putResourcePolicy,
  getResourcePolicy,
  deleteResourcePolicy,
  ...dataProtectionOperations,
  // Kinesis Data Streams destinations (docs/kinesis-destinations.md).
  enableKinesisStreamingDestination,
  disableKinesisStreamingDestination,
  describeKinesisStreamingDestination,
  updateKinesisStreamingDestination,
  // Contributor Insights (docs/contributor-insights-and-endpoints.md §2).
  updateContributorInsights,
  describeContributorInsights,
  listContributorInsights,
  // Global tables (docs/global-tables.md).
  describeTableReplicaAutoScaling,
  updateTableReplicaAutoScaling,
  ...legacyGlobalTableOperations,
];

// biome-ignore lint/suspicious/noExplicitAny: see above.
export const operations: Record<string, OperationDefinition<any, any, any>> = Object.create(null);
for (const definition of definitions) operations[definition.name] = definition;
