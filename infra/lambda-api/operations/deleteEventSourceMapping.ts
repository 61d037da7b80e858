import { answer, type LambdaOperation } from '../operation.js';

/**
 * DeleteEventSourceMapping: answers 202 with `State: Deleting`; the mapping stops at once and its
 * checkpoints are forgotten.
 * https://docs.aws.amazon.com/lambda/latest/api/API_DeleteEventSourceMapping.html
 */
export const deleteEventSourceMapping: LambdaOperation = {
  name: 'DeleteEventSourceMapping',
  method: 'DELETE',
  path: '/2015-03-31/event-source-mappings/{UUID}',
  handle(backend, request) {
    return answer(202, backend.deleteMapping(request.params.UUID!));
  },
};
