import type { LambdaOperation } from '../operation.js';
import { targetFunction } from './shared.js';

/**
 * DeleteFunctionConcurrency: the function goes back to the account's unreserved pool (no limit
 * in eddy); answers 204. https://docs.aws.amazon.com/lambda/latest/api/API_DeleteFunctionConcurrency.html
 */
export const deleteFunctionConcurrency: LambdaOperation = {
  name: 'DeleteFunctionConcurrency',
  method: 'DELETE',
  path: '/2017-10-31/functions/{FunctionName}/concurrency',
  handle(backend, request) {
    const record = targetFunction(backend, request);
    backend.setReservedConcurrency(record.name, undefined);
    return { status: 204 };
  },
};
