import { PolicyNotFoundException, ValidationException } from '../errors/index.js';
import type { Table } from '../store/table.js';
import { INVALID } from '../validations/tableSchema.js';

const INVALID_DOCUMENT = `${INVALID}Invalid policy document: `;

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
  // The ack-api-quirks lab's catalogue (DDB-TABLE-442) and its degenerate inputs (DDB-TABLE-457),
  // recorded 2026-10-09.
  invalidJson: `${INVALID_DOCUMENT}This policy contains invalid Json`,
  notAPolicy: `${INVALID_DOCUMENT}This text appears not to be a policy`,
  syntaxError: (row: number, column: number) =>
    `${INVALID_DOCUMENT}Syntax error at position (${row},${column})`,
  statementEmpty: `${INVALID_DOCUMENT}Could not parse the policy: Statement is empty!`,
  missingField: (field: string) => `${INVALID_DOCUMENT}Missing required field ${field}`,
  duplicateSids: `${INVALID_DOCUMENT}The Statement Ids in the policy are not unique`,
  tooLarge: `${INVALID}Maximum policy size of ${MAX_POLICY_BYTES} bytes exceeded`,
  unbounded:
    'Resource-based policy grants unbounded access in one or more elements. Please revise the policy to ensure least-privilege form of access',
} as const;

/** The policy of a table, if any. */
export function policyOf(table: Table): ResourcePolicy | undefined {
  return policies.get(table);
}

/**
 * The checks DynamoDB makes of a policy document before it stores it, in the order the
 * recordings show: the size, the JSON, a `Statement` that is not empty, each statement's
 * `Effect` and `Resource`, unique `Sid`s, and no statement allowing everyone (`Principal: "*"`)
 * without a condition ("Block Public Access",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/rbac-bpa-rbp.html). Actions and
 * condition keys are not checked: eddy never evaluates them.
 */
export function checkPolicyDocument(policy: string): void {
  if (Buffer.byteLength(policy, 'utf8') > MAX_POLICY_BYTES)
    throw new ValidationException(PolicyMessages.tooLarge);
  let document: unknown;
  try {
    document = JSON.parse(policy);
  } catch {
    throw new ValidationException(PolicyMessages.invalidJson);
  }
  // '' and '[]' are "invalid Json", 'null' "not a policy" (DDB-TABLE-457).
  if (Array.isArray(document)) throw new ValidationException(PolicyMessages.invalidJson);
  if (typeof document !== 'object' || document === null)
    throw new ValidationException(PolicyMessages.notAPolicy);
  const statement = (document as Record<string, unknown>).Statement;
  // '{}' is a syntax error at the end of the text, "(1,3)": the parser wanted a Statement there.
  if (!Object.hasOwn(document, 'Statement')) throw new ValidationException(endOfText(policy));
  const statements = Array.isArray(statement) ? statement : [statement];
  if (statements.length === 0) throw new ValidationException(PolicyMessages.statementEmpty);
  const sids = new Set<string>();
  for (const entry of statements) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new ValidationException(PolicyMessages.notAPolicy);
    const fields = entry as Record<string, unknown>;
    if (!Object.hasOwn(fields, 'Effect'))
      throw new ValidationException(PolicyMessages.missingField('Effect'));
    if (!Object.hasOwn(fields, 'Resource') && !Object.hasOwn(fields, 'NotResource'))
      throw new ValidationException(PolicyMessages.missingField('Resource'));
    if (typeof fields.Sid === 'string') {
      if (sids.has(fields.Sid)) throw new ValidationException(PolicyMessages.duplicateSids);
      sids.add(fields.Sid);
    }
  }
  for (const entry of statements) {
    const fields = entry as Record<string, unknown>;
    if (fields.Effect === 'Allow' && isEveryone(fields.Principal) && fields.Condition === undefined)
      throw new ValidationException(PolicyMessages.unbounded);
  }
}

/** `Principal: "*"` or `{ "AWS": "*" }` (alone or in a list). */
function isEveryone(principal: unknown): boolean {
  if (principal === '*') return true;
  if (typeof principal !== 'object' || principal === null) return false;
  const aws = (principal as Record<string, unknown>).AWS;
  return aws === '*' || (Array.isArray(aws) && aws.includes('*'));
}

/** The syntax error at the end of the text: its last line, one column past its last character. */
function endOfText(policy: string): string {
  const lines = policy.split('\n');
  return PolicyMessages.syntaxError(lines.length, lines[lines.length - 1]!.length + 1);
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

/** Puts back a policy read from a data directory (docs/persistence.md): as it was, revision included. */
export function restorePolicy(table: Table, policy: ResourcePolicy | undefined): void {
  if (policy === undefined) policies.delete(table);
  else policies.set(table, { policy: policy.policy, revisionId: policy.revisionId });
}
