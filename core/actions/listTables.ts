import { defineOperation } from '../operation.js';
import { type ListTablesInput, listTablesShape, MAX_LIST_TABLES_LIMIT } from '../validations/listTables.js';

/**
 * ListTables: table names in ascending order, strictly after ExclusiveStartTableName (which need
 * not exist), at most Limit of them; LastEvaluatedTableName only when more remain (docs/dynamodb.md §3.4.2).
 * Tables being created or deleted are listed too.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListTables.html
 */
export const listTables = defineOperation<ListTablesInput, Record<string, unknown>>({
  name: 'ListTables',
  shape: listTablesShape,
  execute({ region }, input) {
    const limit = input.Limit ?? MAX_LIST_TABLES_LIMIT;
    // Names are [a-zA-Z0-9_.-]: UTF-16 order is byte order.
    const names = [...region.tables.keys()].sort();
    const after = input.ExclusiveStartTableName;
    const start = after === undefined ? 0 : firstAfter(names, after);
    const page = names.slice(start, start + limit);
    const output: Record<string, unknown> = { TableNames: page };
    if (start + limit < names.length) output.LastEvaluatedTableName = page[page.length - 1];
    return output;
  },
});

/** Index of the first name strictly greater than `name` (binary search). */
function firstAfter(names: string[], name: string): number {
  let low = 0;
  let high = names.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (names[middle]! <= name) low = middle + 1;
    else high = middle;
  }
  return low;
}
