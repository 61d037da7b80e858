import type { DynamoDBRecord } from 'aws-lambda';
import { type ChangeEventName, type ServiceIdentity, TTL_PRINCIPAL } from '../../core/changeEvent.js';
import { DynamoDbError } from '../../core/errors/index.js';
import type { AttributeMap } from '../../core/model/attributeValue.js';
import { type AttributeProblems, parseAttributeMap } from '../../core/model/parseAttributeValue.js';
import type { StreamViewType } from '../../core/store/table.js';
import { ReplayInputError } from './recordFile.js';

/** A recorded record, checked and normalised, ready to be committed again. */
export interface RecordedChange {
  readonly eventName: ChangeEventName;
  readonly keys: AttributeMap;
  readonly oldImage: AttributeMap | undefined;
  readonly newImage: AttributeMap | undefined;
  /** Commit time, epoch ms: the record's ApproximateCreationDateTime. */
  readonly at: number;
  /** The TTL principal, for records the TTL process wrote (docs/streams-and-lambda.md §1.2.8). */
  readonly identity: ServiceIdentity | undefined;
  /** The record's StreamViewType, when it says. */
  readonly viewType: StreamViewType | undefined;
}

const VIEW_TYPES: readonly string[] = ['KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES'];

/**
 * Reads a recorded Lambda record back into a change: keys and images validated and normalised by
 * the engine's own attribute-value rules (so `{"N": "1.0"}` and `{"N": "1"}` are the same item, as
 * in DynamoDB), the time from ApproximateCreationDateTime (epoch seconds, docs/streams-and-lambda.md §1.2.5).
 * A record without a time takes `previousAt` (hand-written files may leave it out).
 * @throws ReplayInputError for values DynamoDB would not have stored, and for images an event
 *   cannot carry (an INSERT has no OldImage, a REMOVE no NewImage: docs/streams-and-lambda.md §1.2.3).
 */
export function recordedChange(
  record: DynamoDBRecord,
  where: string,
  file: string,
  previousAt: number,
): RecordedChange {
  const fail = (reason: string, cause?: unknown): never => {
    throw new ReplayInputError(file, where, reason, cause === undefined ? undefined : { cause });
  };
  const body = record.dynamodb as Record<string, unknown>;
  const eventName = record.eventName as ChangeEventName;
  const keys = attributeMap(body.Keys, 'dynamodb.Keys', fail);
  if (Object.keys(keys).length === 0) fail('dynamodb.Keys is empty');
  const oldImage =
    body.OldImage === undefined ? undefined : attributeMap(body.OldImage, 'dynamodb.OldImage', fail);
  const newImage =
    body.NewImage === undefined ? undefined : attributeMap(body.NewImage, 'dynamodb.NewImage', fail);
  if (eventName === 'INSERT' && oldImage !== undefined) fail('an INSERT record has no OldImage');
  if (eventName === 'REMOVE' && newImage !== undefined) fail('a REMOVE record has no NewImage');
  const seconds = body.ApproximateCreationDateTime;
  if (seconds !== undefined && (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0))
    fail('dynamodb.ApproximateCreationDateTime must be epoch seconds (a number)');
  const viewType = body.StreamViewType;
  if (viewType !== undefined && !VIEW_TYPES.includes(viewType as string))
    fail(`dynamodb.StreamViewType must be one of ${VIEW_TYPES.join(', ')}`);
  return {
    eventName,
    keys,
    oldImage,
    newImage,
    at: seconds === undefined ? previousAt : Math.round((seconds as number) * 1000),
    identity: isTtlPrincipal(record.userIdentity) ? TTL_PRINCIPAL : undefined,
    viewType: viewType as StreamViewType | undefined,
  };
}

function attributeMap(raw: unknown, member: string, fail: (reason: string, cause?: unknown) => never) {
  const problems: AttributeProblems = { first: undefined };
  let map: AttributeMap;
  try {
    map = parseAttributeMap(raw, 'field', problems);
  } catch (error) {
    if (error instanceof DynamoDbError) return fail(`${member}: ${error.message}`, error);
    throw error;
  }
  if (problems.first !== undefined)
    fail(`${member}${problems.firstKey === undefined ? '' : `.${problems.firstKey}`}: ${problems.first}`);
  return map;
}

function isTtlPrincipal(identity: unknown): boolean {
  const value = identity as { type?: unknown; principalId?: unknown } | undefined;
  return value?.type === TTL_PRINCIPAL.type && value?.principalId === TTL_PRINCIPAL.principalId;
}
