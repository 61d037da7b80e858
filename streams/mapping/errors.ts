/**
 * The Lambda API's errors for event source mappings (docs/streams-and-lambda.md §2.1). Lambda answers
 * REST-JSON: the HTTP status, an `x-amzn-ErrorType` header with the exception name, and a body
 * `{"Type": "User", "message": "..."}` (`ValidationException`, raised by the request validator,
 * carries no `Type`). Recorded messages: docs/streams-and-lambda.md §2.1.14 and LocalStack's AWS-validated
 * snapshots.
 * https://docs.aws.amazon.com/lambda/latest/api/API_CreateEventSourceMapping.html#API_CreateEventSourceMapping_Errors
 */
export abstract class LambdaServiceError extends Error {
  /** The AWS exception name. */
  abstract override readonly name: string;
  abstract readonly statusCode: number;
  readonly type: 'User' | 'Service' | undefined = 'User';
  readonly $fault: 'client' | 'server' = 'client';
  /**
   * The body's message member: `message` for most, `Message` for the exceptions whose shape
   * spells it so (ResourceNotFoundException, ResourceInUseException, ServiceException in the
   * service model, botocore `data/lambda/2015-03-31/service-2.json`).
   */
  readonly messageKey: 'message' | 'Message' = 'message';

  /** The JSON body Lambda sends. */
  toWire(): Record<string, unknown> {
    const body: Record<string, unknown> = this.type === undefined ? {} : { Type: this.type };
    body[this.messageKey] = this.message;
    return body;
  }
}

export class InvalidParameterValueException extends LambdaServiceError {
  override readonly name = 'InvalidParameterValueException';
  readonly statusCode = 400;
}

/** Constraint violations (`1 validation error detected: Value '0' at 'batchSize' ...`). */
export class LambdaValidationException extends LambdaServiceError {
  override readonly name = 'ValidationException';
  readonly statusCode = 400;
  override readonly type = undefined;
}

export class ResourceConflictException extends LambdaServiceError {
  override readonly name = 'ResourceConflictException';
  readonly statusCode = 409;
}

export class LambdaResourceNotFoundException extends LambdaServiceError {
  override readonly name = 'ResourceNotFoundException';
  readonly statusCode = 404;
  override readonly messageKey = 'Message';
}

/**
 * The mapping is between states (Creating, Enabling, Disabling, Updating, Deleting): the service
 * model's example is "you tried to update an event source mapping in the CREATING state, or you
 * tried to delete an event source mapping currently UPDATING" (HTTP 400, member `Message`).
 */
export class ResourceInUseException extends LambdaServiceError {
  override readonly name = 'ResourceInUseException';
  readonly statusCode = 400;
  override readonly messageKey = 'Message';
}

/** A constraint violation as the request validator words it. */
export interface ConstraintViolation {
  /** The value as Lambda prints it (`'0'`, `'[Foo]'`, `null`). */
  readonly value: string;
  /** The member path in lower camel case (`batchSize`, `filterCriteria.filters.1.member.pattern`). */
  readonly member: string;
  readonly constraint: string;
}

/** `N validation error(s) detected: Value '…' at '…' failed to satisfy constraint: …; …`. */
export function validationError(violations: readonly ConstraintViolation[]): LambdaValidationException {
  const count = violations.length;
  const details = violations
    .map(
      ({ value, member, constraint }) =>
        `Value ${value} at '${member}' failed to satisfy constraint: ${constraint}`,
    )
    .join('; ');
  return new LambdaValidationException(
    `${count} validation error${count === 1 ? '' : 's'} detected: ${details}`,
  );
}
