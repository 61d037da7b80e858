import { randomUUID } from 'node:crypto';
import type { CreateEventSourceMappingInput } from '../../../streams/mapping/settings.js';
import { answer, type LambdaOperation } from '../operation.js';
import { jsonInput } from '../request.js';
import { checkStreamSource, mappingMembers } from './mappingInput.js';

/**
 * CreateEventSourceMapping: a mapping from a DynamoDB stream of this eddy to a function, with
 * every setting mappings support (batching, filters, retries, bisect, partial batch responses,
 * tumbling windows, on-failure destinations). Answers 202 with `State: Creating`; the mapping
 * starts at once. It lives in the same mapping manager as the config's mappings.
 * https://docs.aws.amazon.com/lambda/latest/api/API_CreateEventSourceMapping.html
 */
export const createEventSourceMapping: LambdaOperation = {
  name: 'CreateEventSourceMapping',
  method: 'POST',
  path: '/2015-03-31/event-source-mappings',
  handle(backend, request) {
    const input = mappingMembers(jsonInput(request));
    checkStreamSource(input.EventSourceArn);
    const configuration = backend.createMapping(
      input as unknown as CreateEventSourceMappingInput,
      randomUUID(),
    );
    return answer(202, configuration);
  },
};
