import { ResourceNotFoundException, ValidationException } from '../errors/index.js';
import { defineOperation, type RequestContext } from '../operation.js';
import type { Region } from '../store/region.js';
import type { Table } from '../store/table.js';
import { type TagResourceInput, tagResourceShape, validateTagResource } from '../validations/tagResource.js';
import { MAX_TAGS, type TableArnParts, TagMessages } from '../validations/tags.js';
import { applyTagChange } from './tableLifecycle.js';

/**
 * The table a tagging ARN names. An ARN of another region is invalid; one of another account,
 * or of a missing table, is not found (docs/dynamodb.md §3.4.3).
 */
export function taggedTable(
  region: Region,
  request: RequestContext,
  arn: string,
  parts: TableArnParts,
): Table {
  if (parts.region !== request.region) throw new ValidationException(TagMessages.invalidArn(arn));
  const table = parts.accountId === request.accountId ? region.tables.get(parts.tableName) : undefined;
  if (table === undefined) throw new ResourceNotFoundException(TagMessages.notFound(arn));
  return table;
}

/**
 * TagResource: adds or overwrites tags, at most 50 per table. The answer is empty; the change
 * shows in ListTagsOfResource after the engine's transient delay (since Aug 2024, docs/dynamodb.md §3.4.3).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TagResource.html
 */
export const tagResource = defineOperation<TagResourceInput, Record<string, unknown>, TableArnParts>({
  name: 'TagResource',
  changesTables: true,
  shape: tagResourceShape,
  validate: validateTagResource,
  execute({ engine, region, request }, input, parts) {
    const table = taggedTable(region, request, input.ResourceArn!, parts);
    const tags = input.Tags!;
    const keys = new Set(table.tags.keys());
    for (const tag of tags) keys.add(tag.Key);
    if (keys.size > MAX_TAGS) throw new ValidationException(TagMessages.tooManyTags);
    applyTagChange(
      engine,
      table,
      () => {
        for (const tag of tags) table.tags.set(tag.Key, tag.Value);
      },
      region,
    );
    return {};
  },
});
