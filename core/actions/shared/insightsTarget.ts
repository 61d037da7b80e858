import { ResourceNotFoundException } from '../../errors/index.js';
import type { Region } from '../../store/region.js';
import type { Table } from '../../store/table.js';
import { TableMessages } from '../../validations/tableSchema.js';

/**
 * The table (and GSI) a Contributor Insights call names: a missing or CREATING table is
 * ResourceNotFoundException as for other table calls; a missing index is answered with eddy's
 * text (docs/contributor-insights-and-endpoints.md §2).
 */
export function insightsTarget(region: Region, tableName: string, indexName: string | undefined): Table {
  const table = region.tables.get(tableName);
  if (table === undefined || table.status === 'CREATING')
    throw new ResourceNotFoundException(TableMessages.tableNotFound(tableName));
  if (indexName !== undefined && !table.globalSecondaryIndexes.has(indexName))
    throw new ResourceNotFoundException(`Requested resource not found: Index: ${indexName} not found`);
  return table;
}
