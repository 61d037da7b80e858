import { PolicyNotFoundException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { PolicyMessages, policyOf } from '../policies/resourcePolicies.js';
import {
  type GetResourcePolicyInput,
  getResourcePolicyShape,
  validateGetResourcePolicy,
} from '../validations/getResourcePolicy.js';
import type { TableArnParts } from '../validations/tags.js';
import { policyTable } from './shared/policyTable.js';

/**
 * GetResourcePolicy: the table's policy document and its RevisionId (docs/resource-policies.md).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetResourcePolicy.html
 */
export const getResourcePolicy = defineOperation<
  GetResourcePolicyInput,
  Record<string, unknown>,
  TableArnParts
>({
  name: 'GetResourcePolicy',
  shape: getResourcePolicyShape,
  validate: validateGetResourcePolicy,
  execute({ region }, input, parts) {
    const policy = policyOf(policyTable(region, parts));
    if (policy === undefined) throw new PolicyNotFoundException(PolicyMessages.notFound(input.ResourceArn!));
    return { Policy: policy.policy, RevisionId: policy.revisionId };
  },
});
