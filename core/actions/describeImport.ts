import { BackupMessages, ImportNotFoundException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { type DescribeImportInput, describeImportShape } from '../validations/describeImport.js';

/**
 * DescribeImport: the import's description, with its ImportSummary counts (processed, imported,
 * errors, bytes) as they stand.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeImport.html
 */
export const describeImport = defineOperation<DescribeImportInput, Record<string, unknown>>({
  name: 'DescribeImport',
  shape: describeImportShape,
  execute({ engine }, input) {
    const record = engine.dataProtection.imports.get(input.ImportArn);
    if (record === undefined)
      throw new ImportNotFoundException(BackupMessages.importNotFound(input.ImportArn));
    return { ImportTableDescription: structuredClone(record.description) };
  },
});
