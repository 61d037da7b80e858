import { ResourceNotFoundException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { type DescribeTableInput, describeTableShape } from '../validations/describeTable.js';
import { TableMessages } from '../validations/tableSchema.js';
import { describeTable as tableDescription } from './tableDescription.js';

/**
 * DescribeTable: the table's description in whatever state it is (CREATING and DELETING
 * included, unlike the data plane, docs/dynamodb.md §3.2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html
 */
export const describeTable = defineOperation<DescribeTableInput, Record<string, unknown>>({
  name: 'DescribeTable',
  shape: describeTableShape,
  controlPlaneTableName: true,
  execute({ engine, region }, input) {
    const table = region.tables.get(input.TableName);
    if (table === undefined)
      throw new ResourceNotFoundException(TableMessages.tableNotFound(input.TableName));
    return { Table: tableDescription(table, engine.clock.now()) };
  },
});
