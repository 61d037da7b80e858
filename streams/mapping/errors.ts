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
  readonly type: 'User' | undefined = 'User';
  readonly $fault = 'client' as const;

  /** The JSON body Lambda sends. */
  toWire(): Record<string, unknown> {
    return this.type === undefined ? { message: this.message } : { Type: this.type, message: this.message };
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
