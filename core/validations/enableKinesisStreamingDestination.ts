import { dataPlaneTableName } from './common.js';
import {
  enableKinesisStreamingConfiguration,
  type KinesisStreamingConfiguration,
  streamArn,
} from './kinesisMembers.js';
import type { Shape } from './shape.js';

/**
 * EnableKinesisStreamingDestination: TableName (name or ARN), StreamArn, and an optional
 * EnableKinesisStreamingConfiguration. The ARN itself is not checked here: the service accepts
 * any ARN of the right length and fails the destination later (docs/kinesis-destinations.md §2.2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_EnableKinesisStreamingDestination.html
 */
export interface EnableKinesisStreamingDestinationInput {
  TableName: string;
  StreamArn: string;
  EnableKinesisStreamingConfiguration?: KinesisStreamingConfiguration;
}

export const enableKinesisStreamingDestinationShape: Record<string, Shape> = {
  TableName: dataPlaneTableName,
  StreamArn: streamArn,
  EnableKinesisStreamingConfiguration: enableKinesisStreamingConfiguration,
};
