import { tableArn } from './backupMembers.js';
import type { Shape } from './shape.js';

/**
 * UpdateContinuousBackups: turns point-in-time recovery on or off, with a recovery period of 1 to
 * 35 days (35 when not given).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContinuousBackups.html
 */
export interface UpdateContinuousBackupsInput {
  TableName: string;
  PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: boolean; RecoveryPeriodInDays?: number };
}

export const updateContinuousBackupsShape: Record<string, Shape> = {
  TableName: tableArn(true),
  PointInTimeRecoverySpecification: {
    kind: 'structure',
    name: 'PointInTimeRecoverySpecification',
    required: true,
    members: {
      PointInTimeRecoveryEnabled: { kind: 'boolean', required: true },
      RecoveryPeriodInDays: { kind: 'integer', min: 1, max: 35 },
    },
  },
};
