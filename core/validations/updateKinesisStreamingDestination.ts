import { ValidationException } from '../errors/index.js';
import { KinesisMessages } from '../kinesis/destinations.js';
import { dataPlaneTableName } from './common.js';
import {
  type KinesisStreamingConfiguration,
  streamArn,
  updateKinesisStreamingConfiguration,
} from './kinesisMembers.js';
import type { Shape } from './shape.js';

/**
 * UpdateKinesisStreamingDestination: TableName, StreamArn and an UpdateKinesisStreamingConfiguration
 * that must set something (recorded 2026: missing or empty are refused alike,
 * docs/kinesis-destinations.md §2.3).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateKinesisStreamingDestination.html
 */
export interface UpdateKinesisStreamingDestinationInput {
  TableName: string;
  StreamArn: string;
  UpdateKinesisStreamingConfiguration?: KinesisStreamingConfiguration;
}

export const updateKinesisStreamingDestinationShape: Record<string, Shape> = {
  TableName: dataPlaneTableName,
  StreamArn: streamArn,
  UpdateKinesisStreamingConfiguration: updateKinesisStreamingConfiguration,
};

export function validateUpdateKinesisStreamingDestination(
  input: UpdateKinesisStreamingDestinationInput,
): void {
  if (input.UpdateKinesisStreamingConfiguration?.ApproximateCreationDateTimePrecision === undefined)
    throw new ValidationException(KinesisMessages.updateWithoutConfiguration);
}
