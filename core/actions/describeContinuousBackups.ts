import { continuousBackupsDescription } from '../backups/continuousBackups.js';
import { findTable } from '../backups/dataProtection.js';
import { defineOperation } from '../operation.js';
import {
  type DescribeContinuousBackupsInput,
  describeContinuousBackupsShape,
} from '../validations/describeContinuousBackups.js';

/**
 * DescribeContinuousBackups: the table's point-in-time recovery status and window. Terraform's
 * aws_dynamodb_table reads it on every plan (docs/backups.md §3).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeContinuousBackups.html
 */
export const describeContinuousBackups = defineOperation<
  DescribeContinuousBackupsInput,
  Record<string, unknown>
>({
  name: 'DescribeContinuousBackups',
  shape: describeContinuousBackupsShape,
  execute({ engine, region }, input) {
    const table = findTable(region, input.TableName);
    return { ContinuousBackupsDescription: continuousBackupsDescription(engine, table) };
  },
});
