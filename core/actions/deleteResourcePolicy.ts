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
  execute({ engine, region }, input, parts) {
    const table = policyTable(region, parts);
    const revisionId = deletePolicy(table, input.ResourceArn!, input.ExpectedRevisionId);
    // The policy is part of the table's definition a data directory keeps (docs/persistence.md).
    engine.tableChanged(region, table, 'updated');
    return { RevisionId: revisionId };
  },
});
