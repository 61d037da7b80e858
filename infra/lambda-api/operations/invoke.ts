import { FunctionThrottledError } from '../../functions/concurrencyLimits.js';
import {
  InvalidRequestContentException,
  RequestTooLargeException,
  TooManyRequestsException,
  validationError,
} from '../errors.js';
import { logTail, responseBody } from '../invocationPayload.js';
import type { LambdaOperation } from '../operation.js';
import { quote } from '../request.js';
import { targetFunction } from './shared.js';

/** Invocation payload limits: 6 MB synchronous, 1 MB asynchronous (Lambda quotas). */
const MAX_SYNC_PAYLOAD = 6 * 1024 * 1024;
const MAX_ASYNC_PAYLOAD = 1024 * 1024;
const INVOCATION_TYPES = ['Event', 'RequestResponse', 'DryRun'];
const LOG_TYPES = ['None', 'Tail'];

/**
 * Invoke (https://docs.aws.amazon.com/lambda/latest/api/API_Invoke.html):
 * - `RequestResponse` (default): runs the handler and answers 200 with its result as JSON; a
 *   function error still answers 200, with `X-Amz-Function-Error: Unhandled` and Lambda's error
 *   object (`errorType`, `errorMessage`, `trace`). `X-Amz-Log-Type: Tail` adds the last 4 KB of
 *   the log, base64, in `X-Amz-Log-Result`.
 * - `Event`: queues the event and answers 202 at once (retries and destinations: `AsyncInvocations`).
 * - `DryRun`: checks the request and answers 204.
 * The answer's request id is the invocation's `awsRequestId`.
 */
export const invoke: LambdaOperation = {
  name: 'Invoke',
  method: 'POST',
  path: '/2015-03-31/functions/{FunctionName}/invocations',
  async handle(backend, request) {
    const record = targetFunction(backend, request);
    const invocationType = request.header('x-amz-invocation-type') ?? 'RequestResponse';
    const logType = request.header('x-amz-log-type') ?? 'None';
    const violations = [];
    if (!INVOCATION_TYPES.includes(invocationType))
      violations.push({
        value: quote(invocationType),
        member: 'invocationType',
        constraint: `Member must satisfy enum value set: [${INVOCATION_TYPES.join(', ')}]`,
      });
    if (!LOG_TYPES.includes(logType))
      violations.push({
        value: quote(logType),
        member: 'logType',
        constraint: `Member must satisfy enum value set: [${LOG_TYPES.join(', ')}]`,
      });
    if (violations.length > 0) throw validationError(violations);
    const limit = invocationType === 'Event' ? MAX_ASYNC_PAYLOAD : MAX_SYNC_PAYLOAD;
    if (request.body.length > limit)
      // Lambda's message for the synchronous limit; the asynchronous one says its own figure.
      throw new RequestTooLargeException(
        `Request must be smaller than ${limit} bytes for the InvokeFunction operation`,
      );
    const event = payloadOf(request.body);
    const executed = ['X-Amz-Executed-Version', '$LATEST'];
    if (invocationType === 'DryRun') return { status: 204 };
    if (invocationType === 'Event') {
      backend.async.enqueue(record.name, event, request.requestId);
      return { status: 202 };
    }
    const fn = backend.functions.get(record.name)!;
    let result: Awaited<ReturnType<typeof fn.invoke>>;
    try {
      result = await fn.invoke(event, { requestId: request.requestId });
    } catch (error) {
      // Over the function's reserved concurrency (docs/lambda-api.md §8.2): Lambda's throttle,
      // `Rate Exceeded.` as the SDKs report it, with the service model's ThrottleReason.
      if (error instanceof FunctionThrottledError)
        throw new TooManyRequestsException(
          error.message,
          'ReservedFunctionConcurrentInvocationLimitExceeded',
        );
      throw error;
    }
    const { body, functionError } = responseBody(result);
    const headers = [...executed];
    if (functionError) headers.push('X-Amz-Function-Error', 'Unhandled');
    if (logType === 'Tail') headers.push('X-Amz-Log-Result', logTail(result.logs));
    return { status: 200, headers, body };
  },
};

/** The event: the payload's JSON; no payload is `{}`. */
function payloadOf(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    // Lambda's prefix; the rest is the parser's complaint (the service quotes its own).
    throw new InvalidRequestContentException(
      `Could not parse request body into json: Could not parse payload into json: ${(error as Error).message}`,
    );
  }
}
