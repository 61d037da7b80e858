import { answer, type LambdaOperation } from '../operation.js';

/**
 * GetEventSourceMapping.
 * https://docs.aws.amazon.com/lambda/latest/api/API_GetEventSourceMapping.html
 */
export const getEventSourceMapping: LambdaOperation = {
  name: 'GetEventSourceMapping',
  method: 'GET',
  path: '/2015-03-31/event-source-mappings/{UUID}',
  handle(backend, request) {
    return answer(200, backend.mappings.get(request.params.UUID!));
  },
};
