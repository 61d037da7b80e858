import { regionPrefix } from '../backups/dataProtection.js';
import { pageOf } from '../backups/transfers.js';
import { defineOperation } from '../operation.js';
import { type ListImportsInput, listImportsShape } from '../validations/listImports.js';

/**
 * ListImports: the region's imports (or one table's), oldest first, as ImportSummary entries.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListImports.html
 */
export const listImports = defineOperation<ListImportsInput, Record<string, unknown>>({
  name: 'ListImports',
  shape: listImportsShape,
  execute({ engine, region }, input) {
    const prefix = regionPrefix(region);
    const records = [...engine.dataProtection.imports.values()].filter(
      (record) =>
        record.arn.startsWith(prefix) && (input.TableArn === undefined || record.tableArn === input.TableArn),
    );
    const { page, next } = pageOf(records, input.PageSize ?? 25, input.NextToken);
    return {
      ImportSummaryList: page.map(({ description }) => ({
        ImportArn: description.ImportArn,
        ImportStatus: description.ImportStatus,
        TableArn: description.TableArn,
        S3BucketSource: description.S3BucketSource,
        CloudWatchLogGroupArn: description.CloudWatchLogGroupArn,
        InputFormat: description.InputFormat,
        StartTime: description.StartTime,
        ...(description.EndTime === undefined ? {} : { EndTime: description.EndTime }),
      })),
      ...(next === undefined ? {} : { NextToken: next }),
    };
  },
});
