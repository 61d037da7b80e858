import { answer, type LambdaOperation } from '../operation.js';
import { readReservedConcurrency } from './functionConcurrency.js';
import { targetFunction } from './shared.js';

/**
 * PutFunctionConcurrency: reserves concurrency for the function; from then on at most that many
 * of its invocations run at once, and the next is throttled (docs/lambda-api.md §8). Answers the
 * value as set. https://docs.aws.amazon.com/lambda/latest/api/API_PutFunctionConcurrency.html
 */
export const putFunctionConcurrency: LambdaOperation = {
  name: 'PutFunctionConcurrency',
  method: 'PUT',
  path: '/2017-10-31/functions/{FunctionName}/concurrency',
  handle(backend, request) {
    const record = targetFunction(backend, request);
    const reserved = readReservedConcurrency(request, backend, record.name);
    backend.setReservedConcurrency(record.name, reserved);
    return answer(200, { ReservedConcurrentExecutions: reserved });
  },
};
