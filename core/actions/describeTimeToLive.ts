import { ResourceNotFoundException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { type DescribeTimeToLiveInput, describeTimeToLiveShape } from '../validations/describeTimeToLive.js';
import { TableMessages } from '../validations/tableSchema.js';

/**
 * DescribeTimeToLive: `{TimeToLiveDescription: {TimeToLiveStatus, AttributeName?}}`
 * (docs/streams-and-lambda.md §5.2). A table never configured, or configured then disabled, answers
 * `DISABLED` without an AttributeName; an enabled one `ENABLED` with it. DescribeTable shows nothing of TTL,
 * as in the service.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTimeToLive.html
 */
export const describeTimeToLive = defineOperation<DescribeTimeToLiveInput, Record<string, unknown>>({
  name: 'DescribeTimeToLive',
  shape: describeTimeToLiveShape,
  execute({ region }, input) {
    const table = region.tables.get(input.TableName);
    if (table === undefined)
      throw new ResourceNotFoundException(TableMessages.tableNotFound(input.TableName));
    const { status, attributeName } = table.timeToLive;
    const description: Record<string, unknown> = { TimeToLiveStatus: status };
    if (attributeName !== undefined && status !== 'DISABLED') description.AttributeName = attributeName;
    return { TimeToLiveDescription: description };
  },
});
