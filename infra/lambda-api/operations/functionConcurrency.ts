import type { RestRequest } from '../../host/restService.js';
import type { LambdaBackend } from '../backend.js';
import { InvalidParameterValueException, validationError } from '../errors.js';
import { checkRanges, jsonInput, optionalInteger } from '../request.js';

/**
 * What Put/Get/DeleteFunctionConcurrency share (docs/lambda-api.md §8.1): reserved concurrency is
 * 0 or more, and what all functions reserve together leaves at least 100 of the account's
 * concurrency unreserved. eddy's account has Lambda's default quota, 1000 concurrent executions
 * ("Lambda quotas": "Concurrent executions: 1,000"; "Lambda reserves 100 units of concurrency for
 * functions that don't explicitly reserve concurrency", "Configuring reserved concurrency").
 */

/** The account's concurrency quota (Lambda's default). */
export const ACCOUNT_CONCURRENCY = 1000;
/** What the account keeps unreserved. */
export const MINIMUM_UNRESERVED = 100;

/** `ReservedConcurrentExecutions` of a PutFunctionConcurrency body, checked. */
export function readReservedConcurrency(request: RestRequest, backend: LambdaBackend, name: string): number {
  const input = jsonInput(request);
  const reserved = optionalInteger(input, 'ReservedConcurrentExecutions');
  if (reserved === undefined)
    throw validationError([
      { value: 'null', member: 'reservedConcurrentExecutions', constraint: 'Member must not be null' },
    ]);
  checkRanges([[reserved, 'reservedConcurrentExecutions', 0, undefined]]);
  const limits = backend.functions.concurrency;
  const others = limits
    .entries()
    .filter(([other]) => other !== name)
    .reduce((sum, [, value]) => sum + value, 0);
  if (ACCOUNT_CONCURRENCY - others - reserved < MINIMUM_UNRESERVED)
    // Lambda's message (moto's, from recorded answers).
    throw new InvalidParameterValueException(
      `Specified ReservedConcurrentExecutions for function decreases account's UnreservedConcurrentExecution below its minimum value of [${MINIMUM_UNRESERVED}].`,
    );
  return reserved;
}
