import type { Shape } from './shape.js';

/**
 * DescribeExport: an export ARN.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeExport.html
 */
export interface DescribeExportInput {
  ExportArn: string;
}

export const describeExportShape: Record<string, Shape> = {
  ExportArn: { kind: 'string', required: true, minLength: 37, maxLength: 1024 },
};
