import { defineOperation } from '../operation.js';
import { deletePolicy } from '../policies/resourcePolicies.js';
import {
  type DeleteResourcePolicyInput,
  deleteResourcePolicyShape,
  validateDeleteResourcePolicy,
} from '../validations/deleteResourcePolicy.js';
import type { TableArnParts } from '../validations/tags.js';
import { policyTable } from './shared/policyTable.js';

/**
 * DeleteResourcePolicy: removes the table's policy and answers the RevisionId it had
 * (docs/resource-policies.md). A table without one: PolicyNotFoundException.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteResourcePolicy.html
 */
export const deleteResourcePolicy = defineOperation<
  DeleteResourcePolicyInput,
  Record<string, unknown>,
  TableArnParts
>({
  name: 'DeleteResourcePolicy',
  shape: deleteResourcePolicyShape,
  validate: validateDeleteResourcePolicy,
  execute({ region }, input, parts) {
    const revisionId = deletePolicy(policyTable(region, parts), input.ResourceArn!, input.ExpectedRevisionId);
    return { RevisionId: revisionId };
  },
});
