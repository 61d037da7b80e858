import { answer, type LambdaOperation } from '../operation.js';
import { targetFunction } from './shared.js';

/**
 * GetFunctionConfiguration: the function's settings (FunctionConfiguration).
 * https://docs.aws.amazon.com/lambda/latest/api/API_GetFunctionConfiguration.html
 */
export const getFunctionConfiguration: LambdaOperation = {
  name: 'GetFunctionConfiguration',
  method: 'GET',
  path: '/2015-03-31/functions/{FunctionName}/configuration',
  handle(backend, request) {
    return answer(200, backend.catalog.configuration(targetFunction(backend, request)));
  },
};
