import { AccessDeniedException, ValidationException } from '../errors/index.js';
import type { RequestContext } from '../operation.js';
import { TABLE_NAME_PATTERN } from './common.js';
import type { TagInput } from './tableSchema.js';

/**
 * Tag and resource-ARN rules shared by CreateTable, TagResource, UntagResource and
 * ListTagsOfResource (docs/dynamodb.md §3.4.3, §9.6).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Tagging.html
 */

/** At most 50 tags per table (docs/dynamodb.md §3.4.3). */
export const MAX_TAGS = 50;

export const TagMessages = {
  missingArn: 'Invalid TableArn',
  /**
   * What the service answers for a ResourceArn that does not read as `<6 parts>/<name>`, or names
   * another account: IAM refuses before DynamoDB looks (recorded in dynalite's tests, 2017 and
   * again in its 2025 rewrite; docs/dynamodb.md §3.4.3, §9.6). An empty ARN reads `*`.
   */
  accessDenied: (accountId: string, operation: string, arn: string) =>
    `User: arn:aws:iam::${accountId}:root is not authorized to perform: dynamodb:${operation} on resource: ${arn === '' ? '*' : arn}`,
  invalidArn: (arn: string) => `Invalid TableArn: Invalid ResourceArn provided as input ${arn}`,
  indexArn: (arn: string) =>
    `One or more parameter values were invalid: Invalid resource arn provided, only table or stream is accepted. Provided resource arn: ${arn}`,
  // "ResourcArn" is verbatim, in ListTagsOfResource and TagResource; UntagResource answers the
  // plain text (dynalite's tests, docs/dynamodb.md §3.4.3).
  notFound: (arn: string) => `Requested resource not found: ResourcArn: ${arn} not found`,
  noTags: 'Atleast one Tag needs to be provided as Input.',
  noTagKeys: 'Atleast one Tag Key needs to be provided as Input.',
  nullMember: (member: string) =>
    `1 validation error detected: Value null at '${member}' failed to satisfy constraint: Member must not be null`,
  tooManyTags: 'Number of Tags exceed the current limit for the provided ResourceArn',
  invalidKey: (key: string) => `The Tag Key provided is invalid, Key: ${key}`,
  invalidValue: (value: string) => `The Tag Value provided is invalid, Value: ${value}`,
  awsPrefix: (key: string) => `Tag Key cannot be prefixed with aws:, Key: ${key}`,
  duplicateKey: (key: string) => `Duplicate Tag Keys provided as input: Duplicate Tag Key found ${key}`,
} as const;

/** Letters, numbers, white space and `+ - = . _ : / @` (the AWS tagging character set). */
const TAG_TEXT = /^[\p{L}\p{Z}\p{N}+\-=._:/@]*$/u;

/** Checks the tags of one request: characters, reserved prefix, repeated keys. */
export function checkTags(tags: TagInput[]): void {
  const keys = new Set<string>();
  for (const tag of tags) {
    if (!TAG_TEXT.test(tag.Key)) throw new ValidationException(TagMessages.invalidKey(tag.Key));
    if (tag.Key.startsWith('aws:')) throw new ValidationException(TagMessages.awsPrefix(tag.Key));
    if (!TAG_TEXT.test(tag.Value)) throw new ValidationException(TagMessages.invalidValue(tag.Value));
    if (keys.has(tag.Key)) throw new ValidationException(TagMessages.duplicateKey(tag.Key));
    keys.add(tag.Key);
  }
}

/** A table ARN taken apart. */
export interface TableArnParts {
  region: string;
  accountId: string;
  tableName: string;
}

const TABLE_ARN = /^arn:aws[a-z-]*:dynamodb:([^:]*):([^:]*):table\/(.*)$/;
const TABLE_NAME = new RegExp(`^${TABLE_NAME_PATTERN}$`);
/** The shape IAM needs to evaluate a resource at all: six `:` parts, the last with a `/`. */
const RESOURCE_SHAPE = /^.+:.+:.+:.+:.+:.+\/.+$/;

/**
 * Parses a tagging ResourceArn (docs/dynamodb.md §3.4.3, §9.6). Something that is not shaped like
 * an ARN, or an ARN of another account, is an AccessDeniedException; a malformed ARN, one of
 * another region, or one of an index, a ValidationException.
 */
export function parseTableArn(
  arn: string | undefined,
  operation: string,
  request: RequestContext,
): TableArnParts {
  if (arn === undefined) throw new ValidationException(TagMessages.missingArn);
  if (!RESOURCE_SHAPE.test(arn))
    throw new AccessDeniedException(TagMessages.accessDenied(request.accountId, operation, arn));
  const match = TABLE_ARN.exec(arn);
  if (match === null) throw new ValidationException(TagMessages.invalidArn(arn));
  const [, region, accountId, resource] = match as unknown as [string, string, string, string];
  if (accountId !== request.accountId)
    throw new AccessDeniedException(TagMessages.accessDenied(request.accountId, operation, arn));
  if (region !== request.region) throw new ValidationException(TagMessages.invalidArn(arn));
  if (/^[^/]+\/index\/[^/]+$/.test(resource)) throw new ValidationException(TagMessages.indexArn(arn));
  if (!TABLE_NAME.test(resource) || resource.length < 3 || resource.length > 255)
    throw new ValidationException(TagMessages.invalidArn(arn));
  return { region, accountId, tableName: resource };
}
