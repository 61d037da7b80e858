import { PolicyNotFoundException, ValidationException } from '../errors/index.js';
import type { Table } from '../store/table.js';

/**
 * Resource-based policies of tables: stored and answered, never enforced (docs/resource-policies.md).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/access-control-resource-based.html
 */
export interface ResourcePolicy {
  readonly policy: string;
  readonly revisionId: string;
}

/** A table's policy lives as long as the table object: a re-created table starts without one. */
const policies = new WeakMap<Table, ResourcePolicy>();

/** "The maximum size supported for a resource-based policy document is 20 KB" (the page above). */
export const MAX_POLICY_BYTES = 20 * 1024;

/** ExpectedRevisionId that asks for no policy to be there yet (API_PutResourcePolicy.html). */
export const NO_POLICY = 'NO_POLICY';

/**
 * Texts recorded against the service by moto's aws_verified tests
 * (tests/test_dynamodb/test_dynamodb_resource_policy.py, 2026), except where marked.
 */
export const PolicyMessages = {
  notFound: (arn: string) => `Resource-based policy not found for the provided ResourceArn: ${arn}`,
  revisionMismatch: (expected: string, table: string, current: string) =>
    `Resource-based policy not found for the provided ResourceArn: Requested update for policy with revision id ${expected}, but the policy associated to target table ${table} has revision id ${current}.`,
  expectedNone: (table: string, current: string) =>
    `Resource-based policy not found for the provided ResourceArn: Requested policy update expecting none to be present for table ${table}, but a policy exists with revision id ${current}.`,
  // eddy's own texts (not recorded): a policy that is not a JSON object with a Statement, or too large.
  notJson: 'Invalid policy document: the policy must be a JSON object',
  noStatement: 'Invalid policy document: Missing required field Statement',
  tooLarge: `Invalid policy document: the policy exceeds the maximum size of ${MAX_POLICY_BYTES} bytes`,
} as const;

/** The policy of a table, if any. */
export function policyOf(table: Table): ResourcePolicy | undefined {
  return policies.get(table);
}

/**
 * The checks DynamoDB makes of a policy document before it stores it: at most 20 KB, a JSON
 * object with a `Statement` (IAM's grammar, https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_grammar.html).
 * Principals, actions and conditions are not checked: eddy never evaluates them.
 */
export function checkPolicyDocument(policy: string): void {
  if (Buffer.byteLength(policy, 'utf8') > MAX_POLICY_BYTES)
    throw new ValidationException(PolicyMessages.tooLarge);
  let document: unknown;
  try {
    document = JSON.parse(policy);
  } catch {
    throw new ValidationException(PolicyMessages.notJson);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new ValidationException(PolicyMessages.notJson);
  if (!Object.hasOwn(document, 'Statement')) throw new ValidationException(PolicyMessages.noStatement);
}

/**
 * Stores a policy; the same document again changes nothing (its revision stays). Revision ids
 * are timestamps, so a later revision compares greater (moto's aws_verified
 * `test_put_resource_policy_multiple_times`).
 */
export function putPolicy(
  table: Table,
  policy: string,
  now: number,
  expectedRevisionId?: string,
): ResourcePolicy {
  const current = policies.get(table);
  if (current !== undefined) {
    if (expectedRevisionId === NO_POLICY)
      throw new PolicyNotFoundException(PolicyMessages.expectedNone(table.name, current.revisionId));
    if (expectedRevisionId !== undefined && expectedRevisionId !== current.revisionId)
      throw new PolicyNotFoundException(
        PolicyMessages.revisionMismatch(expectedRevisionId, table.name, current.revisionId),
      );
    if (current.policy === policy) return current;
  }
  const previous = current === undefined ? 0 : Number(current.revisionId);
  const stored = { policy, revisionId: String(Math.max(Math.floor(now), previous + 1)) };
  policies.set(table, stored);
  return stored;
}

/** Removes a table's policy (checked against `expectedRevisionId` when given); answers its revision. */
export function deletePolicy(table: Table, arn: string, expectedRevisionId?: string): string {
  const current = policies.get(table);
  if (current === undefined) throw new PolicyNotFoundException(PolicyMessages.notFound(arn));
  if (expectedRevisionId !== undefined && expectedRevisionId !== current.revisionId)
    throw new PolicyNotFoundException(
      PolicyMessages.revisionMismatch(expectedRevisionId, table.name, current.revisionId),
    );
  policies.delete(table);
  return current.revisionId;
}
