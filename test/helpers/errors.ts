import { DynamoDbError } from '../../core/errors/index.js';

/** The wire form of errors, as the tests expect it: `__type`s, bodies, and the body an error gets. */

export const VALIDATION = 'com.amazon.coral.validate#ValidationException';
export const SERIALIZATION = 'com.amazon.coral.service#SerializationException';
export const NOT_FOUND = 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException';
export const IN_USE = 'com.amazonaws.dynamodb.v20120810#ResourceInUseException';
export const LIMIT = 'com.amazonaws.dynamodb.v20120810#LimitExceededException';
export const TRIMMED = 'com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException';
export const EXPIRED = 'com.amazonaws.dynamodb.v20120810#ExpiredIteratorException';

/** A ValidationException body with exactly `message`. */
export const validation = (message: string) => ({ __type: VALIDATION, message });

/** A SerializationException body: these spell the member `Message`. */
export const serialization = (message: string) => ({ __type: SERIALIZATION, Message: message });

/** The wire body of the DynamoDbError `run` throws (fails if it throws anything else, or nothing). */
export function wireError(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (error) {
    if (error instanceof DynamoDbError) return error.toWire();
    throw error;
  }
  throw new Error('expected the call to fail with a DynamoDbError');
}
