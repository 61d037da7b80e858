import type { Shape } from './shape.js';

/**
 * DescribeImport: an import ARN.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeImport.html
 */
export interface DescribeImportInput {
  ImportArn: string;
}

export const describeImportShape: Record<string, Shape> = {
  ImportArn: { kind: 'string', required: true, minLength: 37, maxLength: 1024 },
};
