import { describeDestination } from '../kinesis/destinations.js';
import { defineOperation } from '../operation.js';
import {
  type DescribeKinesisStreamingDestinationInput,
  describeKinesisStreamingDestinationShape,
} from '../validations/describeKinesisStreamingDestination.js';
import { kinesisTable } from './shared/kinesisTable.js';

/**
 * DescribeKinesisStreamingDestination: every destination of the table, newest first, with its
 * status, the description of a failure, and the precision once one was set (an empty list for a
 * table that never had one; docs/kinesis-destinations.md §2.1).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeKinesisStreamingDestination.html
 */
export const describeKinesisStreamingDestination = defineOperation<
  DescribeKinesisStreamingDestinationInput,
  Record<string, unknown>
>({
  name: 'DescribeKinesisStreamingDestination',
  shape: describeKinesisStreamingDestinationShape,
  execute({ region }, input) {
    const table = kinesisTable(region, input.TableName);
    return {
      KinesisDataStreamDestinations: table.kinesisDestinations.map(describeDestination),
      TableName: table.name,
    };
  },
});
