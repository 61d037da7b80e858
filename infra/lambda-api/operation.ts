import type { RequestContext } from '../../core/operation.js';
import type { RestAnswer, RestRequest } from '../host/restService.js';
import type { LambdaBackend } from './backend.js';

/**
 * One Lambda API operation (one file each under `operations/`, like `core/actions`): its route
 * as the service model declares it (botocore `data/lambda/2015-03-31/service-2.json`: method,
 * `requestUri`, success status) and what it does with the backend.
 */
export interface LambdaOperation {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  handle(
    backend: LambdaBackend,
    request: RestRequest,
    context: RequestContext,
  ): RestAnswer | Promise<RestAnswer>;
}

/** A JSON answer. */
export function answer(status: number, body: object): RestAnswer {
  return { status, body };
}
