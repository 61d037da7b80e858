import type { UpdateEventSourceMappingInput } from '../../../streams/mapping/settings.js';
import { answer, type LambdaOperation } from '../operation.js';
import { jsonInput } from '../request.js';
import { mappingMembers } from './mappingInput.js';

/**
 * UpdateEventSourceMapping: `Enabled: false` answers `Disabling` and pauses the mapping where it
 * is (its checkpoint kept); `Enabled: true` answers `Enabling` and resumes from there; other
 * settings (batching, filters, destinations...) take effect from the next batch. Answers 202.
 * https://docs.aws.amazon.com/lambda/latest/api/API_UpdateEventSourceMapping.html
 */
export const updateEventSourceMapping: LambdaOperation = {
  name: 'UpdateEventSourceMapping',
  method: 'PUT',
  path: '/2015-03-31/event-source-mappings/{UUID}',
  handle(backend, request) {
    const input = mappingMembers(jsonInput(request));
    const update = { ...input, UUID: request.params.UUID! } as unknown as UpdateEventSourceMappingInput;
    return answer(202, backend.updateMapping(update));
  },
};
