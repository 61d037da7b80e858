import { defineOperation } from '../operation.js';
import { putPolicy } from '../policies/resourcePolicies.js';
import {
  type PutResourcePolicyInput,
  putResourcePolicyShape,
  validatePutResourcePolicy,
} from '../validations/putResourcePolicy.js';
import type { TableArnParts } from '../validations/tags.js';
import { policyTable } from './shared/policyTable.js';

/**
 * PutResourcePolicy: attaches a resource-based policy to a table and answers its RevisionId.
 * Stored and answered, not enforced (docs/resource-policies.md).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutResourcePolicy.html
 */
export const putResourcePolicy = defineOperation<
  PutResourcePolicyInput,
  Record<string, unknown>,
  TableArnParts
>({
  name: 'PutResourcePolicy',
  shape: putResourcePolicyShape,
  validate: validatePutResourcePolicy,
  execute({ engine, region }, input, parts) {
    const table = policyTable(region, parts);
    const stored = putPolicy(table, input.Policy!, engine.clock.now(), input.ExpectedRevisionId);
    // The policy is part of the table's definition a data directory keeps (docs/persistence.md).
    engine.tableChanged(region, table, 'updated');
    return { RevisionId: stored.revisionId };
  },
});
