import { updateSettings } from '../functionSettings.js';
import { settingsOf } from '../lambdaState.js';
import { answer, type LambdaOperation } from '../operation.js';
import { jsonInput, optionalString } from '../request.js';
import { targetFunction } from './shared.js';
import { checkRevision } from './updateFunctionCode.js';

/**
 * UpdateFunctionConfiguration: timeout, memory, environment, handler, runtime...; the next
 * invocation runs with them.
 * https://docs.aws.amazon.com/lambda/latest/api/API_UpdateFunctionConfiguration.html
 */
export const updateFunctionConfiguration: LambdaOperation = {
  name: 'UpdateFunctionConfiguration',
  method: 'PUT',
  path: '/2015-03-31/functions/{FunctionName}/configuration',
  handle(backend, request) {
    const current = targetFunction(backend, request);
    const input = jsonInput(request);
    checkRevision(current, optionalString(input, 'RevisionId'));
    const settings = updateSettings(settingsOf(current), input);
    const record = backend.updateFunctionSettings(current.name, settings);
    return answer(200, backend.catalog.configuration(record, 'updated'));
  },
};
