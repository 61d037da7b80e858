import { ValidationException } from '../errors/index.js';
import { KinesisMessages } from '../kinesis/destinations.js';
import { dataPlaneTableName } from './common.js';
import {
  enableKinesisStreamingConfiguration,
  type KinesisStreamingConfiguration,
  streamArn,
} from './kinesisMembers.js';
import type { Shape } from './shape.js';

/**
 * DisableKinesisStreamingDestination: TableName, StreamArn. The API lets it carry an
 * EnableKinesisStreamingConfiguration, which the service refuses (recorded 2026,
 * docs/kinesis-destinations.md §2.4).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DisableKinesisStreamingDestination.html
 */
export interface DisableKinesisStreamingDestinationInput {
  TableName: string;
  StreamArn: string;
  EnableKinesisStreamingConfiguration?: KinesisStreamingConfiguration;
}

export const disableKinesisStreamingDestinationShape: Record<string, Shape> = {
  TableName: dataPlaneTableName,
  StreamArn: streamArn,
  EnableKinesisStreamingConfiguration: enableKinesisStreamingConfiguration,
};

export function validateDisableKinesisStreamingDestination(
  input: DisableKinesisStreamingDestinationInput,
): void {
  if (input.EnableKinesisStreamingConfiguration !== undefined)
    throw new ValidationException(KinesisMessages.disableWithConfiguration);
}
