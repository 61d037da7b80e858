import type { RequestContext } from '../operation.js';
import { checkPolicyDocument } from '../policies/resourcePolicies.js';
import { resourceArn } from './common.js';
import type { Deserialized } from './deserialize.js';
import type { Shape } from './shape.js';
import { parseTableArn, type TableArnParts } from './tags.js';

/**
 * PutResourcePolicy: a table ARN, a policy document (at most 20 KB), and optionally the revision
 * it replaces (`NO_POLICY`: none) (docs/resource-policies.md).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutResourcePolicy.html
 */
export interface PutResourcePolicyInput {
  ResourceArn?: string;
  Policy?: string;
  ExpectedRevisionId?: string;
  ConfirmRemoveSelfResourceAccess?: boolean;
}

export const revisionId: Shape = { kind: 'string', minLength: 1, maxLength: 255 };

export const putResourcePolicyShape: Record<string, Shape> = {
  ResourceArn: { ...resourceArn, required: true },
  Policy: { kind: 'string', required: true },
  ExpectedRevisionId: revisionId,
  ConfirmRemoveSelfResourceAccess: { kind: 'boolean' },
};

/** The ARN as the tagging operations read it (docs/dynamodb.md §3.4.3), then the document. */
export function validatePutResourcePolicy(
  input: PutResourcePolicyInput,
  _deserialized: Deserialized,
  request: RequestContext,
): TableArnParts {
  const parts = parseTableArn(input.ResourceArn, 'PutResourcePolicy', request);
  checkPolicyDocument(input.Policy!);
  return parts;
}
