import { answer, type LambdaOperation } from '../operation.js';
import { configuredFunction, eventInvokeConfigAnswer } from './eventInvokeConfig.js';

/**
 * GetFunctionEventInvokeConfig.
 * https://docs.aws.amazon.com/lambda/latest/api/API_GetFunctionEventInvokeConfig.html
 */
export const getFunctionEventInvokeConfig: LambdaOperation = {
  name: 'GetFunctionEventInvokeConfig',
  method: 'GET',
  path: '/2019-09-25/functions/{FunctionName}/event-invoke-config',
  handle(backend, request) {
    return answer(200, eventInvokeConfigAnswer(backend, configuredFunction(backend, request)));
  },
};
