import { continuousBackupsDescription } from '../backups/continuousBackups.js';
import { findTable } from '../backups/dataProtection.js';
import { TableHistory } from '../backups/tableHistory.js';
import { defineOperation } from '../operation.js';
import {
  type UpdateContinuousBackupsInput,
  updateContinuousBackupsShape,
} from '../validations/updateContinuousBackups.js';

/** The recovery period when none is given (the service's default and maximum). */
export const DEFAULT_RECOVERY_PERIOD_DAYS = 35;

/**
 * UpdateContinuousBackups: enabling starts the table's history (the earliest restorable time is
 * now); enabling again keeps it and may change the recovery period; disabling forgets it
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/PointInTimeRecovery_Howitworks.html).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContinuousBackups.html
 */
export const updateContinuousBackups = defineOperation<UpdateContinuousBackupsInput, Record<string, unknown>>(
  {
    name: 'UpdateContinuousBackups',
    shape: updateContinuousBackupsShape,
    execute({ engine, region }, input) {
      const table = findTable(region, input.TableName);
      const protection = engine.dataProtection;
      const specification = input.PointInTimeRecoverySpecification;
      const history = protection.histories.get(table.tableId);
      if (specification.PointInTimeRecoveryEnabled) {
        const days = specification.RecoveryPeriodInDays;
        if (history === undefined)
          protection.histories.set(
            table.tableId,
            new TableHistory(engine.clock.now(), days ?? DEFAULT_RECOVERY_PERIOD_DAYS),
          );
        else if (days !== undefined) history.periodDays = days;
      } else protection.histories.delete(table.tableId);
      protection.changed();
      return { ContinuousBackupsDescription: continuousBackupsDescription(engine, table) };
    },
  },
);
