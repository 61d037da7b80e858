import { ResourceNotFoundException, ValidationException } from '../../core/errors/index.js';
import { TABLE_NAME_PATTERN } from '../../core/validations/common.js';
import type { IntegerShape, StringShape } from '../../core/validations/shape.js';

/**
 * Request members and messages of the DynamoDB Streams API
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Operations_Amazon_DynamoDB_Streams.html).
 * Lengths are the API model's; the Limit maximums are the documented ones
 * (docs/streams-and-lambda.md §1.4.9, §1.5.5), reported like any other constraint.
 */
export const streamArn: StringShape = { kind: 'string', minLength: 37, maxLength: 1024 };
export const shardId: StringShape = { kind: 'string', minLength: 28, maxLength: 65 };
export const sequenceNumber: StringShape = { kind: 'string', minLength: 21, maxLength: 40 };
export const tableName: StringShape = {
  kind: 'string',
  minLength: 3,
  maxLength: 255,
  pattern: TABLE_NAME_PATTERN,
};
export const shardIteratorType: StringShape = {
  kind: 'string',
  required: true,
  enum: ['TRIM_HORIZON', 'LATEST', 'AT_SEQUENCE_NUMBER', 'AFTER_SEQUENCE_NUMBER'],
};
export const limit = (max: number): IntegerShape => ({ kind: 'integer', min: 1, max });

/**
 * Messages. Sources: "Requested resource not found: Stream: <arn> not found" and "Requested
 * resource not found: Shard does not exist" are recorded from AWS in public issue threads
 * (SeanRoy/lambda-maven-plugin#121, ironSource/node-dynamodb-stream#16); the trimmed message is
 * the one quoted from AWS in ironSource/node-dynamodb-stream#13; the expired message is the API
 * reference's text for ExpiredIteratorException.message (GetRecords, Errors). The sequence-number
 * rule's message follows the wording of the same rule in Kinesis (the service Streams shares its
 * iterator model with); the malformed-ARN and malformed-iterator messages are eddy's (AWS answers
 * ValidationException for both, docs/streams-and-lambda.md §1.5.9, with no recorded text).
 */
export const StreamsMessages = {
  streamNotFound: (arn: string) => `Requested resource not found: Stream: ${arn} not found`,
  shardNotFound: 'Requested resource not found: Shard does not exist',
  tableNotFound: (table: string) => `Requested resource not found: Table: ${table} not found`,
  invalidStreamArn: (arn: string) => `Invalid StreamArn: ${arn}`,
  invalidIterator: 'Invalid ShardIterator',
  iteratorExpired: 'The provided iterator exceeds the maximum age allowed.',
  sequenceNumberRule: (type: string, given: boolean) =>
    'Must either specify (1) AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER and SequenceNumber or ' +
    `(2) TRIM_HORIZON or LATEST and no SequenceNumber. Request specified ${type} and ${given ? 'a' : 'no'} SequenceNumber.`,
  invalidSequenceNumber: (value: string) => `Invalid SequenceNumber: ${value} (decimal digits only)`,
} as const;

/** The parts of a stream ARN (docs/streams-and-lambda.md §1.1.7). */
export interface StreamArnParts {
  readonly region: string;
  readonly accountId: string;
  readonly tableName: string;
  readonly label: string;
}

const STREAM_ARN =
  /^arn:aws[a-z-]*:dynamodb:([a-z0-9-]+):(\d{12}):table\/([a-zA-Z0-9_.-]{3,255})\/stream\/(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})$/;

/**
 * Parses a stream ARN.
 * @throws ValidationException for a malformed ARN (real DynamoDB; DynamoDB Local answers
 * ResourceNotFoundException, docs/streams-and-lambda.md §1.5.9).
 */
export function parseStreamArn(arn: string): StreamArnParts {
  const match = STREAM_ARN.exec(arn);
  if (match === null) throw new ValidationException(StreamsMessages.invalidStreamArn(arn));
  return { region: match[1]!, accountId: match[2]!, tableName: match[3]!, label: match[4]! };
}

export function streamNotFound(arn: string): ResourceNotFoundException {
  return new ResourceNotFoundException(StreamsMessages.streamNotFound(arn));
}
