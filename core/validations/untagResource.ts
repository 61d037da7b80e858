import { ValidationException } from '../errors/index.js';
import type { RequestContext } from '../operation.js';
import { resourceArn } from './common.js';
import type { Deserialized } from './deserialize.js';
import type { Shape } from './shape.js';
import { parseTableArn, type TableArnParts, TagMessages } from './tags.js';

/**
 * UntagResource: the ARN must name a table, at least one key; absent keys are fine (docs/dynamodb.md §3.4.3).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UntagResource.html
 */
export interface UntagResourceInput {
  ResourceArn?: string;
  TagKeys?: string[];
}

export const untagResourceShape: Record<string, Shape> = {
  ResourceArn: resourceArn,
  TagKeys: { kind: 'list', member: { kind: 'string', minLength: 1, maxLength: 128 } },
};

export function validateUntagResource(
  input: UntagResourceInput,
  _deserialized: Deserialized,
  request: RequestContext,
): TableArnParts {
  if (input.ResourceArn === undefined) throw new ValidationException(TagMessages.missingArn);
  if (input.TagKeys === undefined) throw new ValidationException(TagMessages.nullMember('tagKeys'));
  const parts = parseTableArn(input.ResourceArn, 'UntagResource', request);
  if (input.TagKeys.length === 0) throw new ValidationException(TagMessages.noTagKeys);
  return parts;
}
