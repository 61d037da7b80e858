import { tableArn } from './backupMembers.js';
import type { Shape } from './shape.js';

/**
 * ListExports: optionally one table's, in pages of MaxResults (1..25).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListExports.html
 */
export interface ListExportsInput {
  TableArn?: string;
  MaxResults?: number;
  NextToken?: string;
}

export const listExportsShape: Record<string, Shape> = {
  TableArn: tableArn(false),
  MaxResults: { kind: 'integer', min: 1, max: 25 },
  NextToken: { kind: 'string' },
};
