import type { AttributeMap } from '../model/attributeValue.js';
import { DynamoDbError, ErrorPrefix } from './DynamoDbError.js';

/**
 * One class per AWS exception name. Each sets the `__type` prefix the service uses for it
 * (docs/dynamodb.md §1.2.3): validation errors under `com.amazon.coral.validate`, protocol errors under
 * `com.amazon.coral.service`, the rest under `com.amazonaws.dynamodb.v20120810`.
 */

export class ValidationException extends DynamoDbError {
  override readonly name = 'ValidationException';
  readonly prefix = ErrorPrefix.validate;
}

export class SerializationException extends DynamoDbError {
  override readonly name = 'SerializationException';
  readonly prefix = ErrorPrefix.service;
  override readonly messageKey = 'Message';
  override readonly hasMessage: boolean;
  /**
   * Malformed JSON answers `{"__type": "...#SerializationException"}` with no message
   * (docs/dynamodb.md §1.2.4).
   */
  constructor(message?: string) {
    super(message ?? '');
    this.hasMessage = message !== undefined;
  }
}

/**
 * An unknown target has no message (docs/dynamodb.md §1.2.5). An operation of the DynamoDB or
 * Streams API that eddy does not serve gets one naming it (`infra/host/unservedOperations.ts`).
 */
export class UnknownOperationException extends DynamoDbError {
  override readonly name = 'UnknownOperationException';
  readonly prefix = ErrorPrefix.service;
  override readonly messageKey = 'Message';
  override readonly hasMessage: boolean;
  constructor(message?: string) {
    super(message ?? '');
    this.hasMessage = message !== undefined;
  }
}

export class MissingAuthenticationTokenException extends DynamoDbError {
  override readonly name = 'MissingAuthenticationTokenException';
  readonly prefix = ErrorPrefix.service;
  override readonly statusCode = 400;
  constructor(message = 'Request is missing Authentication Token') {
    super(message);
  }
}

export class IncompleteSignatureException extends DynamoDbError {
  override readonly name = 'IncompleteSignatureException';
  readonly prefix = ErrorPrefix.service;
}

export class InvalidSignatureException extends DynamoDbError {
  override readonly name = 'InvalidSignatureException';
  readonly prefix = ErrorPrefix.service;
}

export class UnrecognizedClientException extends DynamoDbError {
  override readonly name = 'UnrecognizedClientException';
  readonly prefix = ErrorPrefix.service;
  constructor(message = 'The security token included in the request is invalid.') {
    super(message);
  }
}

export class AccessDeniedException extends DynamoDbError {
  override readonly name = 'AccessDeniedException';
  readonly prefix = ErrorPrefix.service;
  // `Message`, as the other coral.service errors spell it (dynalite's tests, docs/dynamodb.md §1.2.2).
  override readonly messageKey = 'Message';
}

/**
 * One entry of a throttling exception's reasons: `<Table|Index><Read|Write><limit>` and the ARN of
 * the table or index (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html).
 */
export interface ThrottlingReason {
  reason: string;
  resource: string;
}

export class ThrottlingException extends DynamoDbError {
  override readonly name = 'ThrottlingException';
  readonly prefix = ErrorPrefix.availability;
  /** Spelled `throttlingReasons` on this exception (botocore's service-2.json shape). */
  constructor(
    message?: string,
    readonly throttlingReasons?: ThrottlingReason[],
  ) {
    super(message);
  }
  override extraMembers(): Record<string, unknown> {
    return this.throttlingReasons ? { throttlingReasons: this.throttlingReasons } : {};
  }
}

export class ResourceNotFoundException extends DynamoDbError {
  override readonly name = 'ResourceNotFoundException';
  readonly prefix = ErrorPrefix.dynamodb;
  constructor(message = 'Requested resource not found') {
    super(message);
  }
}

/** A table without the resource-based policy asked for, or with another revision (docs/resource-policies.md). */
export class PolicyNotFoundException extends DynamoDbError {
  override readonly name = 'PolicyNotFoundException';
  readonly prefix = ErrorPrefix.dynamodb;
}

/** A legacy (version 2017.11.29) global table that does not exist (docs/global-tables.md §6). */
export class GlobalTableNotFoundException extends DynamoDbError {
  override readonly name = 'GlobalTableNotFoundException';
  readonly prefix = ErrorPrefix.dynamodb;
}

export class ResourceInUseException extends DynamoDbError {
  override readonly name = 'ResourceInUseException';
  readonly prefix = ErrorPrefix.dynamodb;
}

export class LimitExceededException extends DynamoDbError {
  override readonly name = 'LimitExceededException';
  readonly prefix = ErrorPrefix.dynamodb;
}

export class ProvisionedThroughputExceededException extends DynamoDbError {
  override readonly name = 'ProvisionedThroughputExceededException';
  readonly prefix = ErrorPrefix.dynamodb;
  /** Spelled `ThrottlingReasons` on this exception (botocore's service-2.json shape). */
  constructor(
    message?: string,
    readonly throttlingReasons?: ThrottlingReason[],
  ) {
    super(message);
  }
  override extraMembers(): Record<string, unknown> {
    return this.throttlingReasons ? { ThrottlingReasons: this.throttlingReasons } : {};
  }
}

export class ConditionalCheckFailedException extends DynamoDbError {
  override readonly name = 'ConditionalCheckFailedException';
  readonly prefix = ErrorPrefix.dynamodb;
  /** The item as it was, when the request asked for ReturnValuesOnConditionCheckFailure ALL_OLD. */
  readonly item: AttributeMap | undefined;
  constructor(item?: AttributeMap, message = 'The conditional request failed') {
    super(message);
    this.item = item;
  }
  override extraMembers(): Record<string, unknown> {
    return this.item ? { Item: this.item } : {};
  }
}

/** One entry of TransactionCanceledException.CancellationReasons (docs/dynamodb.md §7.3.5). */
export interface CancellationReason {
  Code: string;
  Message?: string;
  Item?: AttributeMap;
}

export class TransactionCanceledException extends DynamoDbError {
  override readonly name = 'TransactionCanceledException';
  readonly prefix = ErrorPrefix.dynamodb;
  override readonly messageKey = 'Message';
  readonly cancellationReasons: CancellationReason[];
  constructor(reasons: CancellationReason[]) {
    super(
      `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons
        .map((reason) => reason.Code)
        .join(', ')}]`,
    );
    this.cancellationReasons = reasons;
  }
  override extraMembers(): Record<string, unknown> {
    return { CancellationReasons: this.cancellationReasons };
  }
}

/** A PartiQL INSERT of a key that exists (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.insert.html). */
export class DuplicateItemException extends DynamoDbError {
  override readonly name = 'DuplicateItemException';
  readonly prefix = ErrorPrefix.dynamodb;
  constructor(message = 'Duplicate primary key exists in table') {
    super(message);
  }
}

export class TransactionConflictException extends DynamoDbError {
  override readonly name = 'TransactionConflictException';
  readonly prefix = ErrorPrefix.dynamodb;
}

export class TransactionInProgressException extends DynamoDbError {
  override readonly name = 'TransactionInProgressException';
  readonly prefix = ErrorPrefix.dynamodb;
}

export class IdempotentParameterMismatchException extends DynamoDbError {
  override readonly name = 'IdempotentParameterMismatchException';
  readonly prefix = ErrorPrefix.dynamodb;
}

export class ItemCollectionSizeLimitExceededException extends DynamoDbError {
  override readonly name = 'ItemCollectionSizeLimitExceededException';
  readonly prefix = ErrorPrefix.dynamodb;
}

export class InternalServerError extends DynamoDbError {
  override readonly name = 'InternalServerError';
  readonly prefix = ErrorPrefix.dynamodb;
  override readonly $fault = 'server';
  override readonly statusCode = 500;
}

/**
 * HTTP 503, "DynamoDB is currently unavailable. (This should be a temporary state.)": the SDKs
 * retry it with backoff. eddy answers it when it is already receiving as many request bytes as
 * it buffers at once (docs/security.md, "Resource bounds").
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
 */
export class ServiceUnavailable extends DynamoDbError {
  override readonly name = 'ServiceUnavailable';
  readonly prefix = ErrorPrefix.dynamodb;
  override readonly $fault = 'server';
  override readonly statusCode = 503;
}

/* DynamoDB Streams (DynamoDBStreams_20120810) exceptions. */

export class ExpiredIteratorException extends DynamoDbError {
  override readonly name = 'ExpiredIteratorException';
  readonly prefix = ErrorPrefix.dynamodb;
}

export class TrimmedDataAccessException extends DynamoDbError {
  override readonly name = 'TrimmedDataAccessException';
  readonly prefix = ErrorPrefix.dynamodb;
}
