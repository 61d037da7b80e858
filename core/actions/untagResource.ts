import { defineOperation } from '../operation.js';
import type { TableArnParts } from '../validations/tags.js';
import {
  type UntagResourceInput,
  untagResourceShape,
  validateUntagResource,
} from '../validations/untagResource.js';
import { applyTagChange } from './tableLifecycle.js';
import { taggedTable } from './tagResource.js';

/**
 * UntagResource: removes tags by key; keys the table does not have are fine. The answer is
 * empty; the change shows after the engine's transient delay (docs/dynamodb.md §3.4.3).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UntagResource.html
 */
export const untagResource = defineOperation<UntagResourceInput, Record<string, unknown>, TableArnParts>({
  name: 'UntagResource',
  changesTables: true,
  shape: untagResourceShape,
  validate: validateUntagResource,
  execute({ engine, region }, input, parts) {
    const table = taggedTable(region, input.ResourceArn!, parts, 'plain');
    const keys = input.TagKeys!;
    applyTagChange(
      engine,
      table,
      () => {
        for (const key of keys) table.tags.delete(key);
      },
      region,
    );
    return {};
  },
});
