/**
 * Consumed capacity by the service's rules (docs/dynamodb.md §4.3,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/provisioned-capacity-mode.html):
 * writes ⌈size/1 KB⌉ (minimum 1), reads ⌈size/4 KB⌉ (minimum 1), eventually consistent reads at
 * half, transactions at double.
 */
export type ReturnConsumedCapacity = 'INDEXES' | 'TOTAL' | 'NONE';

export const WRITE_UNIT_BYTES = 1024;
export const READ_UNIT_BYTES = 4096;

export function writeUnits(sizeBytes: number): number {
  return Math.max(1, Math.ceil(sizeBytes / WRITE_UNIT_BYTES));
}

export function readUnits(sizeBytes: number, consistentRead: boolean): number {
  const units = Math.max(1, Math.ceil(sizeBytes / READ_UNIT_BYTES));
  return consistentRead ? units : units / 2;
}

export interface CapacityUnits {
  CapacityUnits: number;
}

export interface ConsumedCapacity {
  TableName: string;
  CapacityUnits: number;
  Table?: CapacityUnits;
  GlobalSecondaryIndexes?: Record<string, CapacityUnits>;
  LocalSecondaryIndexes?: Record<string, CapacityUnits>;
}

/** Index capacity consumed by one operation, by index name. */
export interface IndexCapacity {
  global?: Record<string, number>;
  local?: Record<string, number>;
}

/**
 * Builds the ConsumedCapacity member (or undefined for NONE). TOTAL gives the table name and the
 * total; INDEXES adds the table's share and each touched index (docs/dynamodb.md §4.3.1).
 */
export function consumedCapacity(
  mode: ReturnConsumedCapacity | undefined,
  tableName: string,
  tableUnits: number,
  indexes: IndexCapacity = {},
): ConsumedCapacity | undefined {
  if (mode === undefined || mode === 'NONE') return undefined;
  let total = tableUnits;
  for (const units of Object.values(indexes.global ?? {})) total += units;
  for (const units of Object.values(indexes.local ?? {})) total += units;
  const result: ConsumedCapacity = { TableName: tableName, CapacityUnits: total };
  if (mode === 'INDEXES') {
    result.Table = { CapacityUnits: tableUnits };
    if (indexes.global && Object.keys(indexes.global).length > 0)
      result.GlobalSecondaryIndexes = mapUnits(indexes.global);
    if (indexes.local && Object.keys(indexes.local).length > 0)
      result.LocalSecondaryIndexes = mapUnits(indexes.local);
  }
  return result;
}

function mapUnits(units: Record<string, number>): Record<string, CapacityUnits> {
  const out: Record<string, CapacityUnits> = {};
  for (const [name, value] of Object.entries(units)) out[name] = { CapacityUnits: value };
  return out;
}
