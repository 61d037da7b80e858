import { ResourceNotFoundException } from '../../core/errors/index.js';
import { defineStreamsOperation } from './operation.js';
import { limit, parseStreamArn, StreamsMessages, streamArn, tableName } from './shapes.js';

export interface ListStreamsInput {
  TableName?: string;
  Limit?: number;
  ExclusiveStartStreamArn?: string;
}

/**
 * ListStreams: the retained streams of the caller's account and region, enabled or disabled
 * (a disabled stream stays listed for 24 hours, docs/streams-and-lambda.md §1.4.7), optionally of one table.
 * Pages by stream ARN order: `ExclusiveStartStreamArn` in, `LastEvaluatedStreamArn` out while more remain.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_ListStreams.html
 */
export const listStreams = defineStreamsOperation<ListStreamsInput>({
  name: 'ListStreams',
  shape: { TableName: tableName, Limit: limit(100), ExclusiveStartStreamArn: streamArn },
  validate(input) {
    // A malformed ExclusiveStartStreamArn is a ValidationException on AWS (Alternator's
    // test_list_streams_with_nonexistent_last_stream).
    if (input.ExclusiveStartStreamArn !== undefined) parseStreamArn(input.ExclusiveStartStreamArn);
  },
  execute(context, input) {
    let streams = context.changeLog.listStreams(context.accountId, context.region);
    if (input.TableName !== undefined) {
      streams = streams.filter((stream) => stream.tableName === input.TableName);
      const table = context.changeLog.source
        .region(context.accountId, context.region)
        .tables.get(input.TableName);
      if (streams.length === 0 && table === undefined)
        throw new ResourceNotFoundException(StreamsMessages.tableNotFound(input.TableName));
    }
    const start = input.ExclusiveStartStreamArn;
    if (start !== undefined) streams = streams.filter((stream) => stream.arn > start);
    const page = streams.slice(0, input.Limit ?? 100);
    const output: Record<string, unknown> = {
      Streams: page.map((stream) => ({
        StreamArn: stream.arn,
        TableName: stream.tableName,
        StreamLabel: stream.label,
      })),
    };
    if (page.length < streams.length) output.LastEvaluatedStreamArn = page.at(-1)!.arn;
    return output;
  },
});
