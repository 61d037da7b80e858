import { defineOperation } from '../operation.js';
import {
  type ListTagsOfResourceInput,
  listTagsOfResourceShape,
  validateListTagsOfResource,
} from '../validations/listTagsOfResource.js';
import type { TableArnParts } from '../validations/tags.js';
import { taggedTable } from './tagResource.js';

/**
 * ListTagsOfResource: the table's tags, in the order they were first set (docs/dynamodb.md §3.4.3).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListTagsOfResource.html
 */
export const listTagsOfResource = defineOperation<
  ListTagsOfResourceInput,
  Record<string, unknown>,
  TableArnParts
>({
  name: 'ListTagsOfResource',
  shape: listTagsOfResourceShape,
  validate: validateListTagsOfResource,
  execute({ region }, input, parts) {
    const table = taggedTable(region, input.ResourceArn!, parts);
    return { Tags: [...table.tags].map(([Key, Value]) => ({ Key, Value })) };
  },
});
