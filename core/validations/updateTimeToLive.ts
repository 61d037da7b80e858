import { dataPlaneTableName } from './common.js';
import type { Shape, StructureShape } from './shape.js';

/**
 * UpdateTimeToLive: TableName and a TimeToLiveSpecification whose AttributeName (1..255
 * characters) and Enabled are both required (docs/streams-and-lambda.md §5.1, §5.3). Wrong member types are
 * SerializationExceptions, missing or over-long members entries of the constraint list.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTimeToLive.html
 */
export interface TimeToLiveSpecification {
  AttributeName: string;
  Enabled: boolean;
}

export interface UpdateTimeToLiveInput {
  TableName: string;
  TimeToLiveSpecification: TimeToLiveSpecification;
}

export const timeToLiveSpecification: StructureShape = {
  kind: 'structure',
  name: 'TimeToLiveSpecification',
  required: true,
  members: {
    AttributeName: { kind: 'string', required: true, minLength: 1, maxLength: 255 },
    Enabled: { kind: 'boolean', required: true },
  },
};

export const updateTimeToLiveShape: Record<string, Shape> = {
  TableName: dataPlaneTableName,
  TimeToLiveSpecification: timeToLiveSpecification,
};

/** The service's texts for TTL changes it refuses (docs/streams-and-lambda.md §5.3, recorded against AWS). */
export const TimeToLiveMessages = {
  alreadyEnabled: 'TimeToLive is already enabled',
  alreadyDisabled: 'TimeToLive is already disabled',
  differentAttribute: (current: string) =>
    `TimeToLive is active on a different AttributeName: current AttributeName is ${current}`,
  tooSoon: 'Time to live has been modified multiple times within a fixed interval',
} as const;
