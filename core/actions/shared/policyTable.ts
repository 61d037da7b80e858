import { ResourceNotFoundException } from '../../errors/index.js';
import type { Region } from '../../store/region.js';
import type { Table } from '../../store/table.js';
import { TableMessages } from '../../validations/tableSchema.js';
import type { TableArnParts } from '../../validations/tags.js';

/**
 * The table a resource-policy operation names. A missing one: `Requested resource not found:
 * Table: <name> not found` (moto's aws_verified `test_put_resource_policy_unknown_resource`, 2026).
 */
export function policyTable(region: Region, parts: TableArnParts): Table {
  const table = region.tables.get(parts.tableName);
  if (table === undefined) throw new ResourceNotFoundException(TableMessages.tableNotFound(parts.tableName));
  return table;
}
