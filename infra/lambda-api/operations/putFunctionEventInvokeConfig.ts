import { answer, type LambdaOperation } from '../operation.js';
import { configuredFunction, eventInvokeConfigAnswer, readEventInvokeConfig } from './eventInvokeConfig.js';

/**
 * PutFunctionEventInvokeConfig: replaces the settings of the function's asynchronous invocations.
 * https://docs.aws.amazon.com/lambda/latest/api/API_PutFunctionEventInvokeConfig.html
 */
export const putFunctionEventInvokeConfig: LambdaOperation = {
  name: 'PutFunctionEventInvokeConfig',
  method: 'PUT',
  path: '/2019-09-25/functions/{FunctionName}/event-invoke-config',
  handle(backend, request) {
    const record = configuredFunction(backend, request);
    const config = readEventInvokeConfig(request, undefined, backend.clock.now());
    return answer(200, eventInvokeConfigAnswer(backend, backend.setEventInvokeConfig(record.name, config)));
  },
};
