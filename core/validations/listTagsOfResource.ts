import type { RequestContext } from '../operation.js';
import { resourceArn } from './common.js';
import type { Deserialized } from './deserialize.js';
import type { Shape } from './shape.js';
import { parseTableArn, type TableArnParts } from './tags.js';

/**
 * ListTagsOfResource: the ARN must name a table (docs/dynamodb.md §3.4.3, §9.6). A table holds at most 50
 * tags, so one page always holds them all and NextToken is accepted but not needed.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListTagsOfResource.html
 */
export interface ListTagsOfResourceInput {
  ResourceArn?: string;
  NextToken?: string;
}

export const listTagsOfResourceShape: Record<string, Shape> = {
  ResourceArn: resourceArn,
  NextToken: { kind: 'string' },
};

export function validateListTagsOfResource(
  input: ListTagsOfResourceInput,
  _deserialized: Deserialized,
  request: RequestContext,
): TableArnParts {
  return parseTableArn(input.ResourceArn, 'ListTagsOfResource', request);
}
