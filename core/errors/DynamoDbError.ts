/**
 * The base of every error eddy answers on the DynamoDB wire.
 *
 * The wire body is `{"__type": "<prefix>#<name>", "message": "<text>"}` (HTTP 400, or 500 for
 * `InternalServerError`). A few exceptions spell the key `Message` (SerializationException and
 * TransactionCanceledException): see `messageKey`.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
 */
export type ErrorFault = 'client' | 'server';

/** `__type` prefixes as the service sends them (docs/dynamodb.md §1.2.3). */
export const ErrorPrefix = {
  validate: 'com.amazon.coral.validate',
  service: 'com.amazon.coral.service',
  availability: 'com.amazon.coral.availability',
  dynamodb: 'com.amazonaws.dynamodb.v20120810',
} as const;
export type ErrorPrefix = (typeof ErrorPrefix)[keyof typeof ErrorPrefix];

export abstract class DynamoDbError extends Error {
  /** The AWS exception name, e.g. `ConditionalCheckFailedException`. */
  abstract override readonly name: string;
  abstract readonly prefix: ErrorPrefix;
  readonly $fault: ErrorFault = 'client';
  readonly statusCode: number = 400;
  /** `message` for most errors; `Message` for serialization-type errors and cancellations. */
  readonly messageKey: 'message' | 'Message' = 'message';
  /** Some errors carry no message member at all on the wire (e.g. UnknownOperationException). */
  readonly hasMessage: boolean = true;

  /**
   * Service errors are answers, not bugs: they skip the stack trace, which measured ~25 µs per
   * error response (ConditionalCheckFailedException is ordinary traffic). Set
   * `DynamoDbError.captureStacks = true` to debug where one is thrown.
   */
  static captureStacks = false;

  constructor(message?: string) {
    const limit = Error.stackTraceLimit;
    if (!DynamoDbError.captureStacks) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }

  get __type(): string {
    return `${this.prefix}#${this.name}`;
  }

  /** Extra wire members beyond `__type` and the message (e.g. `Item`, `CancellationReasons`). */
  extraMembers(): Record<string, unknown> {
    return {};
  }

  /** The JSON body the service sends for this error. */
  toWire(): Record<string, unknown> {
    const body: Record<string, unknown> = { __type: this.__type };
    if (this.hasMessage) body[this.messageKey] = this.message;
    return Object.assign(body, this.extraMembers());
  }
}
