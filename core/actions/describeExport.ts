import { BackupMessages, ExportNotFoundException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { type DescribeExportInput, describeExportShape } from '../validations/describeExport.js';

/**
 * DescribeExport: the export's description (status, counts, manifest key, failure).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeExport.html
 */
export const describeExport = defineOperation<DescribeExportInput, Record<string, unknown>>({
  name: 'DescribeExport',
  shape: describeExportShape,
  execute({ engine }, input) {
    const record = engine.dataProtection.exports.get(input.ExportArn);
    if (record === undefined)
      throw new ExportNotFoundException(BackupMessages.exportNotFound(input.ExportArn));
    return { ExportDescription: structuredClone(record.description) };
  },
});
