import { regionPrefix } from '../backups/dataProtection.js';
import { pageOf } from '../backups/transfers.js';
import { defineOperation } from '../operation.js';
import { type ListExportsInput, listExportsShape } from '../validations/listExports.js';

/**
 * ListExports: the region's exports (or one table's), oldest first: ExportArn, ExportStatus and
 * ExportType each, as recorded against AWS in getmoto/moto
 * tests/test_dynamodb/test_dynamodb_export_table.py (test_list_exports).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListExports.html
 */
export const listExports = defineOperation<ListExportsInput, Record<string, unknown>>({
  name: 'ListExports',
  shape: listExportsShape,
  execute({ engine, region }, input) {
    const prefix = regionPrefix(region);
    const records = [...engine.dataProtection.exports.values()].filter(
      (record) =>
        record.arn.startsWith(prefix) && (input.TableArn === undefined || record.tableArn === input.TableArn),
    );
    const { page, next } = pageOf(records, input.MaxResults ?? 25, input.NextToken);
    return {
      ExportSummaries: page.map(({ description }) => ({
        ExportArn: description.ExportArn,
        ExportStatus: description.ExportStatus,
        ExportType: description.ExportType,
      })),
      ...(next === undefined ? {} : { NextToken: next }),
    };
  },
});
