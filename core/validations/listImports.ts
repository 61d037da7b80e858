import { tableArn } from './backupMembers.js';
import type { Shape } from './shape.js';

/**
 * ListImports: optionally one table's, in pages of PageSize (1..25); NextToken is hex, 112 to
 * 1024 characters, as the service's.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListImports.html
 */
export interface ListImportsInput {
  TableArn?: string;
  PageSize?: number;
  NextToken?: string;
}

export const listImportsShape: Record<string, Shape> = {
  TableArn: tableArn(false),
  PageSize: { kind: 'integer', min: 1, max: 25 },
  NextToken: { kind: 'string', minLength: 112, maxLength: 1024, pattern: '([0-9a-f]{16})+' },
};
