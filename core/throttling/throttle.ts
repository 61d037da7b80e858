import {
  type CancellationReason,
  ProvisionedThroughputExceededException,
  ThrottlingException,
  type ThrottlingReason,
} from '../errors/index.js';

/**
 * What was exceeded, named as the service names it in `ThrottlingReason.reason`:
 * `<Table|Index><Read|Write><limit>` (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html,
 * docs/capacity.md §4).
 */
export type ThrottleLimit =
  | 'ProvisionedThroughputExceeded'
  | 'AccountLimitExceeded'
  | 'KeyRangeThroughputExceeded'
  | 'MaxOnDemandThroughputExceeded';

export type Access = 'Read' | 'Write';

/** One resource (a table or a GSI) that could not serve a request. */
export interface Throttle {
  readonly resource: 'Table' | 'Index';
  readonly access: Access;
  readonly limit: ThrottleLimit;
  readonly arn: string;
}

/**
 * The service's texts, as botocore's service model lists them for TransactionCanceledException
 * (`ProvisionedThroughputExceeded` and `ThrottlingError` reasons) and as live errors show them:
 * the GSI text without a final period (a 2021 ProvisionedThroughputExceededException quoted in
 * exercism/website#949), the on-demand text without one after the URL (ThrottlingExceptions
 * quoted in praetorian-inc/chariot-ui#684, 2024, and cowinapi/developer.cowin#151, 2021).
 */
export const ThrottleMessages = {
  provisionedTable:
    'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
  provisionedIndex:
    'The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded. Consider increasing your provisioning level for the under-provisioned global secondary indexes with the UpdateTable API',
  onDemandTable:
    'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html',
  onDemandIndex:
    'Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is automatically scaling your index so please try again shortly.',
} as const;

export function throttlingReasons(throttles: readonly Throttle[]): ThrottlingReason[] {
  return throttles.map((throttle) => ({
    reason: `${throttle.resource}${throttle.access}${throttle.limit}`,
    resource: throttle.arn,
  }));
}

function isProvisioned(throttles: readonly Throttle[]): boolean {
  return throttles.some((throttle) => throttle.limit === 'ProvisionedThroughputExceeded');
}

function messageOf(throttles: readonly Throttle[]): string {
  const table = throttles.some((throttle) => throttle.resource === 'Table');
  if (isProvisioned(throttles))
    return table ? ThrottleMessages.provisionedTable : ThrottleMessages.provisionedIndex;
  return table ? ThrottleMessages.onDemandTable : ThrottleMessages.onDemandIndex;
}

/**
 * The exception for a throttled request: ProvisionedThroughputExceededException when a
 * provisioned table or index ran out, ThrottlingException for the on-demand limits (key range,
 * per-table quota, OnDemandThroughput), as BatchWriteItem's reference describes the two
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html).
 */
export function throttleError(
  throttles: readonly Throttle[],
): ProvisionedThroughputExceededException | ThrottlingException {
  const reasons = throttlingReasons(throttles);
  return isProvisioned(throttles)
    ? new ProvisionedThroughputExceededException(messageOf(throttles), reasons)
    : new ThrottlingException(messageOf(throttles), reasons);
}

/** A transaction's cancellation reason for a throttled action (API_TransactWriteItems.html). */
export function throttleCancellation(throttles: readonly Throttle[]): CancellationReason {
  return {
    Code: isProvisioned(throttles) ? 'ProvisionedThroughputExceeded' : 'ThrottlingError',
    Message: messageOf(throttles),
  };
}
