import { defineOperation } from '../operation.js';
import { type DescribeLimitsInput, describeLimitsShape } from '../validations/describeLimits.js';

/**
 * The default provisioned-capacity quotas of an account in most regions: 40,000 read and write
 * units per table, 80,000 per account.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
 */
export const DEFAULT_LIMITS = {
  AccountMaxReadCapacityUnits: 80_000,
  AccountMaxWriteCapacityUnits: 80_000,
  TableMaxReadCapacityUnits: 40_000,
  TableMaxWriteCapacityUnits: 40_000,
} as const;

/**
 * DescribeLimits: the account's capacity quotas in the region.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeLimits.html
 */
export const describeLimits = defineOperation<DescribeLimitsInput, Record<string, unknown>>({
  name: 'DescribeLimits',
  shape: describeLimitsShape,
  execute() {
    return { ...DEFAULT_LIMITS };
  },
});
