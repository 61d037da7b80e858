import { ResourceNotFoundException } from '../../errors/index.js';
import type { Region } from '../../store/region.js';
import type { Table } from '../../store/table.js';
import { TableMessages } from '../../validations/tableSchema.js';

/**
 * The table a Kinesis destination call names: a missing table, or one still CREATING, is
 * ResourceNotFoundException (recorded 2026, docs/kinesis-destinations.md §2.5).
 */
export function kinesisTable(region: Region, tableName: string): Table {
  const table = region.tables.get(tableName);
  if (table === undefined || table.status === 'CREATING')
    throw new ResourceNotFoundException(TableMessages.tableNotFound(tableName));
  return table;
}
