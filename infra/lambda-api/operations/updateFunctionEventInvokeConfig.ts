import { answer, type LambdaOperation } from '../operation.js';
import { configuredFunction, eventInvokeConfigAnswer, readEventInvokeConfig } from './eventInvokeConfig.js';

/**
 * UpdateFunctionEventInvokeConfig: changes the members given, keeps the others.
 * https://docs.aws.amazon.com/lambda/latest/api/API_UpdateFunctionEventInvokeConfig.html
 */
export const updateFunctionEventInvokeConfig: LambdaOperation = {
  name: 'UpdateFunctionEventInvokeConfig',
  method: 'POST',
  path: '/2019-09-25/functions/{FunctionName}/event-invoke-config',
  handle(backend, request) {
    const record = configuredFunction(backend, request);
    const config = readEventInvokeConfig(request, record.eventInvokeConfig, backend.clock.now());
    return answer(200, eventInvokeConfigAnswer(backend, backend.setEventInvokeConfig(record.name, config)));
  },
};
