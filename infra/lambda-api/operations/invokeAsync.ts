import { InvalidRequestContentException } from '../errors.js';
import type { LambdaOperation } from '../operation.js';
import { targetFunction } from './shared.js';

/**
 * InvokeAsync, the deprecated form of `Invoke` with `InvocationType: Event`: answers 202 with
 * `{"Status": 202}`.
 * https://docs.aws.amazon.com/lambda/latest/api/API_InvokeAsync.html
 */
export const invokeAsync: LambdaOperation = {
  name: 'InvokeAsync',
  method: 'POST',
  path: '/2014-11-13/functions/{FunctionName}/invoke-async',
  handle(backend, request) {
    const record = targetFunction(backend, request);
    let event: unknown = {};
    if (request.body.length > 0) {
      try {
        event = JSON.parse(request.body.toString('utf8'));
      } catch (error) {
        throw new InvalidRequestContentException(
          `Could not parse request body into json: ${(error as Error).message}`,
        );
      }
    }
    backend.async.enqueue(record.name, event, request.requestId);
    return { status: 202, body: { Status: 202 } };
  },
};
