import { answer, type LambdaOperation } from '../operation.js';
import { targetFunction } from './shared.js';

/**
 * GetFunctionConcurrency: the function's reserved concurrency; a function without one answers
 * an empty object, as Lambda does (the member is optional in the service model).
 * https://docs.aws.amazon.com/lambda/latest/api/API_GetFunctionConcurrency.html
 */
export const getFunctionConcurrency: LambdaOperation = {
  name: 'GetFunctionConcurrency',
  method: 'GET',
  path: '/2019-09-30/functions/{FunctionName}/concurrency',
  handle(backend, request) {
    const record = targetFunction(backend, request);
    const reserved = backend.functions.concurrency.get(record.name);
    return answer(200, reserved === undefined ? {} : { ReservedConcurrentExecutions: reserved });
  },
};
