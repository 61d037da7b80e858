import type { CreationDateTimePrecision } from '../kinesis/destinations.js';
import type { StringShape, StructureShape } from './shape.js';

/**
 * Members shared by the four *KinesisStreamingDestination operations: StreamArn of 37 to 1024
 * characters, and the precision of `ApproximateCreationDateTime`.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_EnableKinesisStreamingDestination.html
 */
export const streamArn: StringShape = { kind: 'string', required: true, minLength: 37, maxLength: 1024 };

const precision: StringShape = { kind: 'string', enum: ['MILLISECOND', 'MICROSECOND'] };

export interface KinesisStreamingConfiguration {
  ApproximateCreationDateTimePrecision?: CreationDateTimePrecision;
}

export const enableKinesisStreamingConfiguration: StructureShape = {
  kind: 'structure',
  name: 'EnableKinesisStreamingConfiguration',
  members: { ApproximateCreationDateTimePrecision: precision },
};

export const updateKinesisStreamingConfiguration: StructureShape = {
  kind: 'structure',
  name: 'UpdateKinesisStreamingConfiguration',
  members: { ApproximateCreationDateTimePrecision: precision },
};
