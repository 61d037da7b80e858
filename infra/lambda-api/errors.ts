import { DynamoDbError } from '../../core/errors/index.js';
import { LambdaServiceError } from '../../streams/mapping/errors.js';
import type { RestAnswer } from '../host/restService.js';

export {
  type ConstraintViolation,
  InvalidParameterValueException,
  LambdaResourceNotFoundException as ResourceNotFoundException,
  LambdaServiceError,
  LambdaValidationException,
  ResourceConflictException,
  ResourceInUseException,
  validationError,
} from '../../streams/mapping/errors.js';

/**
 * The Lambda API's exceptions beyond the event source mappings' (`streams/mapping/errors.ts`):
 * names, HTTP statuses and message members as the service model declares them (botocore
 * `data/lambda/2015-03-31/service-2.json`). Lambda answers REST-JSON: the status, an
 * `x-amzn-ErrorType` header naming the exception, and `{"Type": "User", "message": "..."}`.
 * https://docs.aws.amazon.com/lambda/latest/api/CommonErrors.html
 */

/**
 * Throttled: the request rate or the concurrency limit is exceeded. `Reason` is one of the service
 * model's `ThrottleReason` values; eddy throttles only on reserved concurrency
 * (`ReservedFunctionConcurrentInvocationLimitExceeded`, docs/lambda-api.md §8.2).
 */
export class TooManyRequestsException extends LambdaServiceError {
  override readonly name = 'TooManyRequestsException';
  readonly statusCode = 429;

  constructor(
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }

  override toWire(): Record<string, unknown> {
    const body = super.toWire();
    if (this.reason !== undefined) body.Reason = this.reason;
    return body;
  }
}

/** The invocation payload is over Lambda's limit (6 MB synchronous, 1 MB asynchronous). */
export class RequestTooLargeException extends LambdaServiceError {
  override readonly name = 'RequestTooLargeException';
  readonly statusCode = 413;
}

/** The request body (or the invocation payload) is not the JSON the operation takes. */
export class InvalidRequestContentException extends LambdaServiceError {
  override readonly name = 'InvalidRequestContentException';
  readonly statusCode = 400;
}

/** Lambda's own failure (HTTP 500): what eddy answers for its bugs. */
export class ServiceException extends LambdaServiceError {
  override readonly name = 'ServiceException';
  readonly statusCode = 500;
  override readonly type = 'Service';
  override readonly $fault = 'server';
  override readonly messageKey = 'Message';
}

/** Signature problems are 403 on the REST services, whatever DynamoDB answers (400). */
const AUTH_STATUS: Readonly<Record<string, number>> = {
  IncompleteSignatureException: 403,
  InvalidSignatureException: 403,
  UnrecognizedClientException: 403,
  MissingAuthenticationTokenException: 403,
};

function errorAnswer(status: number, name: string, body: object): RestAnswer {
  return { status, headers: ['x-amzn-ErrorType', name], body };
}

/**
 * The wire answer of an error: a Lambda exception as Lambda sends it; an authentication error of
 * the host's signature check with Lambda's status; undefined for anything else (a bug).
 */
export function lambdaErrorAnswer(error: unknown): RestAnswer | undefined {
  if (error instanceof LambdaServiceError) return errorAnswer(error.statusCode, error.name, error.toWire());
  if (error instanceof DynamoDbError)
    return errorAnswer(AUTH_STATUS[error.name] ?? error.statusCode, error.name, { message: error.message });
  return undefined;
}

/** The answer to an eddy bug: Lambda's ServiceException. */
export function internalErrorAnswer(): RestAnswer {
  const error = new ServiceException('An internal error occurred in eddy; its log has the details.');
  return errorAnswer(error.statusCode, error.name, error.toWire());
}

/**
 * A path under a Lambda API version that names no operation eddy serves, docs/lambda-api.md §1.5:
 * Smithy's framework error for an unmatched route is `UnknownOperationException`, HTTP 404; the
 * message is eddy's.
 */
export function unknownOperationAnswer(method: string, path: string): RestAnswer {
  return errorAnswer(404, 'UnknownOperationException', {
    Type: 'User',
    message: `Unknown operation: eddy serves no Lambda operation at ${method} ${path}`,
  });
}

/** A RevisionId that is not the function's current one (optimistic locking of updates). */
export class PreconditionFailedException extends LambdaServiceError {
  override readonly name = 'PreconditionFailedException';
  readonly statusCode = 412;
}
