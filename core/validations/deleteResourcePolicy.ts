import type { RequestContext } from '../operation.js';
import { resourceArn } from './common.js';
import type { Deserialized } from './deserialize.js';
import { revisionId } from './putResourcePolicy.js';
import type { Shape } from './shape.js';
import { parseTableArn, type TableArnParts } from './tags.js';

/**
 * DeleteResourcePolicy: a table ARN and optionally the revision it removes (docs/resource-policies.md).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteResourcePolicy.html
 */
export interface DeleteResourcePolicyInput {
  ResourceArn?: string;
  ExpectedRevisionId?: string;
}

export const deleteResourcePolicyShape: Record<string, Shape> = {
  ResourceArn: { ...resourceArn, required: true },
  ExpectedRevisionId: revisionId,
};

export function validateDeleteResourcePolicy(
  input: DeleteResourcePolicyInput,
  _deserialized: Deserialized,
  request: RequestContext,
): TableArnParts {
  return parseTableArn(input.ResourceArn, 'DeleteResourcePolicy', request);
}
