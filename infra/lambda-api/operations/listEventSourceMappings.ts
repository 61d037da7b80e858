import { answer, type LambdaOperation } from '../operation.js';
import { maxItems } from './shared.js';

/**
 * ListEventSourceMappings: the config's mappings and the API's, optionally by `EventSourceArn`
 * and `FunctionName`, 100 at most per page (`Marker` / `NextMarker`).
 * https://docs.aws.amazon.com/lambda/latest/api/API_ListEventSourceMappings.html
 */
export const listEventSourceMappings: LambdaOperation = {
  name: 'ListEventSourceMappings',
  method: 'GET',
  path: '/2015-03-31/event-source-mappings',
  handle(backend, request) {
    const query = request.query;
    const limit = maxItems(request);
    return answer(
      200,
      backend.mappings.list({
        ...(query.get('EventSourceArn') === null ? {} : { EventSourceArn: query.get('EventSourceArn')! }),
        ...(query.get('FunctionName') === null ? {} : { FunctionName: query.get('FunctionName')! }),
        ...(query.get('Marker') === null ? {} : { Marker: query.get('Marker')! }),
        ...(limit === undefined ? {} : { MaxItems: limit }),
      }),
    );
  },
};
