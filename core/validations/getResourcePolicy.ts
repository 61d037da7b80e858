import type { RequestContext } from '../operation.js';
import { resourceArn } from './common.js';
import type { Deserialized } from './deserialize.js';
import type { Shape } from './shape.js';
import { parseTableArn, type TableArnParts } from './tags.js';

/**
 * GetResourcePolicy: a table ARN (docs/resource-policies.md).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetResourcePolicy.html
 */
export interface GetResourcePolicyInput {
  ResourceArn?: string;
}

export const getResourcePolicyShape: Record<string, Shape> = {
  ResourceArn: { ...resourceArn, required: true },
};

export function validateGetResourcePolicy(
  input: GetResourcePolicyInput,
  _deserialized: Deserialized,
  request: RequestContext,
): TableArnParts {
  return parseTableArn(input.ResourceArn, 'GetResourcePolicy', request);
}
