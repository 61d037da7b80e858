import { ValidationException } from '../errors/index.js';
import type { RequestContext } from '../operation.js';
import { resourceArn, tagList } from './common.js';
import type { Deserialized } from './deserialize.js';
import type { Shape } from './shape.js';
import type { TagInput } from './tableSchema.js';
import { checkTags, parseTableArn, type TableArnParts, TagMessages } from './tags.js';

/**
 * TagResource: the ARN must name a table (docs/dynamodb.md §3.4.3, §9.6), at least one tag, valid tags.
 * Order (dynalite's recordings): missing ARN → missing Tags → ARN form → empty Tags → tag rules.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TagResource.html
 */
export interface TagResourceInput {
  ResourceArn?: string;
  Tags?: TagInput[];
}

// Tags is checked for null in `validateTagResource`, after the ARN (hence not `required` here).
export const tagResourceShape: Record<string, Shape> = {
  ResourceArn: resourceArn,
  Tags: tagList(false),
};

export function validateTagResource(
  input: TagResourceInput,
  _deserialized: Deserialized,
  request: RequestContext,
): TableArnParts {
  if (input.ResourceArn === undefined) throw new ValidationException(TagMessages.missingArn);
  if (input.Tags === undefined) throw new ValidationException(TagMessages.nullMember('tags'));
  const parts = parseTableArn(input.ResourceArn, 'TagResource', request);
  if (input.Tags.length === 0) throw new ValidationException(TagMessages.noTags);
  checkTags(input.Tags);
  return parts;
}
