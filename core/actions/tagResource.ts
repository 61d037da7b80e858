import { ResourceNotFoundException, ValidationException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import type { Region } from '../store/region.js';
import type { Table } from '../store/table.js';
import { type TagResourceInput, tagResourceShape, validateTagResource } from '../validations/tagResource.js';
import { MAX_TAGS, type TableArnParts, TagMessages } from '../validations/tags.js';
import { applyTagChange } from './tableLifecycle.js';

/**
 * The table a tagging ARN names (its account and region were checked with its form). A missing
 * table is not found, with the ARN in the text except in UntagResource (docs/dynamodb.md §3.4.3).
 */
export function taggedTable(
  region: Region,
  arn: string,
  parts: TableArnParts,
  notFound: 'with-arn' | 'plain' = 'with-arn',
): Table {
  const table = region.tables.get(parts.tableName);
  if (table === undefined)
    throw new ResourceNotFoundException(notFound === 'plain' ? undefined : TagMessages.notFound(arn));
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
  execute({ engine, region }, input, parts) {
    const table = taggedTable(region, input.ResourceArn!, parts);
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
