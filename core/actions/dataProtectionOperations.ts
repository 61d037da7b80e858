import type { OperationDefinition } from '../operation.js';
import { createBackup } from './createBackup.js';
import { deleteBackup } from './deleteBackup.js';
import { describeBackup } from './describeBackup.js';
import { describeContinuousBackups } from './describeContinuousBackups.js';
import { describeExport } from './describeExport.js';
import { describeImport } from './describeImport.js';
import { exportTableToPointInTime } from './exportTableToPointInTime.js';
import { importTable } from './importTable.js';
import { listBackups } from './listBackups.js';
import { listExports } from './listExports.js';
import { listImports } from './listImports.js';
import { restoreTableFromBackup } from './restoreTableFromBackup.js';
import { restoreTableToPointInTime } from './restoreTableToPointInTime.js';
import { updateContinuousBackups } from './updateContinuousBackups.js';

/** The operations of backups, point-in-time recovery, exports and imports (docs/backups.md). */
// biome-ignore lint/suspicious/noExplicitAny: each definition carries its own input/output types.
export const dataProtectionOperations: OperationDefinition<any, any, any>[] = [
  createBackup,
  deleteBackup,
  describeBackup,
  describeContinuousBackups,
  listBackups,
  restoreTableFromBackup,
  restoreTableToPointInTime,
  updateContinuousBackups,
  exportTableToPointInTime,
  describeExport,
  listExports,
  importTable,
  describeImport,
  listImports,
];
