import { AccessDeniedException, ValidationException } from '../../errors/index.js';
import type { RequestContext } from '../../operation.js';

/**
 * A table named by its ARN, wherever DynamoDB takes one in place of a name (`TableName` of the
 * operations on existing tables, the `RequestItems` keys of the batches, the `TableName` of each
 * transaction action: "You can also provide the Amazon Resource Name (ARN) of the table in this
 * parameter", https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html).
 * See docs/table-arns.md.
 */
const TABLE_ARN = /^arn:aws[a-z-]*:dynamodb:([^:]*):([^:]*):table\/([^/]+)$/;

export const TableArnMessages = {
  /**
   * Another account's table: IAM answers before DynamoDB looks, and without a resource-based
   * policy of that table nothing allows the call (the IAM error text of
   * https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html; eddy's
   * caller is the account's root, as in docs/dynamodb.md §3.4.3).
   */
  otherAccount: (callerAccount: string, operation: string, arn: string) =>
    `User: arn:aws:iam::${callerAccount}:root is not authorized to perform: dynamodb:${operation} on resource: ${arn} because no resource-based policy allows the dynamodb:${operation} action`,
  /**
   * Another region's table: a validation error naming the ARN (recorded in 2025,
   * https://github.com/hashicorp/terraform-provider-aws/issues/42792).
   */
  otherRegion: (arn: string) => `1 validation error detected: Invalid AWS region in '${arn}'`,
} as const;

/**
 * The table name a `TableName` (or batch key) stands for: a name as it is; a table ARN of the
 * caller's account and region, its name. Another account is checked before another region, as
 * the service does (an account's ARN is denied without saying whether its region is valid).
 * Anything else that starts with `arn:` (an index or stream ARN, a malformed one) is left as it
 * is and names no table (`ResourceNotFoundException`).
 */
export function resolveTableName(nameOrArn: string, request: RequestContext, operation: string): string {
  if (!nameOrArn.startsWith('arn:')) return nameOrArn;
  const match = TABLE_ARN.exec(nameOrArn);
  if (match === null) return nameOrArn;
  const [, region, accountId, name] = match as unknown as [string, string, string, string];
  if (accountId !== request.accountId)
    throw new AccessDeniedException(TableArnMessages.otherAccount(request.accountId, operation, nameOrArn));
  if (region !== request.region) throw new ValidationException(TableArnMessages.otherRegion(nameOrArn));
  return name;
}
