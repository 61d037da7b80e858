import { TABLE_NAME_PATTERN } from './common.js';
import type { Shape } from './shape.js';

/**
 * ListTables: paging parameters, checked in the constraint list (docs/dynamodb.md §3.4.2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListTables.html
 */
export interface ListTablesInput {
  ExclusiveStartTableName?: string;
  Limit?: number;
}

/** The page size when the request names none (and the largest allowed). */
export const MAX_LIST_TABLES_LIMIT = 100;

export const listTablesShape: Record<string, Shape> = {
  // The order the service walks them (dynalite's tests, docs/dynamodb.md §1.2.8).
  Limit: { kind: 'integer', min: 1, max: MAX_LIST_TABLES_LIMIT },
  ExclusiveStartTableName: { kind: 'string', minLength: 3, maxLength: 255, pattern: TABLE_NAME_PATTERN },
};
