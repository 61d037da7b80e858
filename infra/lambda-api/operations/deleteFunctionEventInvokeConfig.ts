import type { LambdaOperation } from '../operation.js';
import { configuredFunction, eventInvokeConfigAnswer } from './eventInvokeConfig.js';

/**
 * DeleteFunctionEventInvokeConfig: back to the defaults (two retries, six hours, no
 * destinations); answers 204.
 * https://docs.aws.amazon.com/lambda/latest/api/API_DeleteFunctionEventInvokeConfig.html
 */
export const deleteFunctionEventInvokeConfig: LambdaOperation = {
  name: 'DeleteFunctionEventInvokeConfig',
  method: 'DELETE',
  path: '/2019-09-25/functions/{FunctionName}/event-invoke-config',
  handle(backend, request) {
    const record = configuredFunction(backend, request);
    eventInvokeConfigAnswer(backend, record);
    backend.setEventInvokeConfig(record.name, undefined);
    return { status: 204 };
  },
};
