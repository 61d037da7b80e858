import { dataPlaneTableName } from './common.js';
import type { Shape } from './shape.js';

/**
 * DeleteTable: TableName only (control-plane name checks, docs/dynamodb.md §2.5.2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteTable.html
 */
export interface DeleteTableInput {
  TableName: string;
}

export const deleteTableShape: Record<string, Shape> = { TableName: dataPlaneTableName };

/** The service's answer to deleting a protected table (ValidationException). */
export const DELETION_PROTECTED =
  'Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.';
