import { recordOfToken, requestFingerprint, tokenOf } from '../backups/clientTokens.js';
import { LATEST_RESTORABLE_LAG_MS } from '../backups/continuousBackups.js';
import { newId, type TransferRecord } from '../backups/dataProtection.js';
import { itemsOf } from '../backups/pointInTime.js';
import { DataTransferFailure, type ExportJob, type IncrementalRecord } from '../backups/ports.js';
import type { IncrementalChange } from '../backups/tableHistory.js';
import {
  BackupMessages,
  ExportConflictException,
  InvalidExportTimeException,
  PointInTimeRecoveryUnavailableException,
  TableNotFoundException,
  ValidationException,
} from '../errors/index.js';
import { tableByArn } from '../indexes/maintenance.js';
import { defineOperation } from '../operation.js';
import type { Table } from '../store/table.js';
import {
  ExportMessages,
  type ExportTableToPointInTimeInput,
  exportTableToPointInTimeShape,
  MAX_INCREMENTAL_MS,
  MIN_INCREMENTAL_MS,
} from '../validations/exportTableToPointInTime.js';
import { extractItemKey } from '../validations/keys.js';

/**
 * ExportTableToPointInTime: writes the table as it was at `ExportTime` (FULL_EXPORT), or the net
 * changes of a window (INCREMENTAL_EXPORT), to a bucket in DynamoDB's export layout, in the
 * background (docs/backups.md §5). Needs point-in-time recovery on the table, as the service
 * does. The items are fixed when the call is answered; writing them does not stop writers.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExportTableToPointInTime.html
 */
export const exportTableToPointInTime = defineOperation<
  ExportTableToPointInTimeInput,
  Record<string, unknown>
>({
  name: 'ExportTableToPointInTime',
  shape: exportTableToPointInTimeShape,
  execute({ engine, region }, input) {
    const protection = engine.dataProtection;
    const request = requestFingerprint(input);
    if (input.ClientToken !== undefined) {
      // The same token within 8 hours: the same parameters answer the export it started, any
      // other parameter (table, format, bucket, owner, prefix, SSE, type, window, view)
      // ExportConflictException, recorded against AWS in scylladb/scylladb
      // test/alternator/test_export.py (test_export_client_token_idempotent,
      // test_export_client_token_some_value_changed, ..._changed_incremental_export_spec_fields).
      const earlier = recordOfToken(
        protection.exports,
        region.accountId,
        region.name,
        input.ClientToken,
        engine.clock.now(),
      );
      if (earlier !== undefined) {
        if (earlier.request !== request) throw new ExportConflictException(BackupMessages.duplicateRequest);
        return { ExportDescription: { ...earlier.description } };
      }
    }
    const table = tableByArn((account, name) => engine.region(account, name), input.TableArn);
    if (table === undefined || region.tables.get(table.name) !== table)
      throw new TableNotFoundException(BackupMessages.tableNotFound(input.TableArn));
    const history = protection.histories.get(table.tableId);
    if (history === undefined)
      throw new PointInTimeRecoveryUnavailableException(BackupMessages.pitrUnavailable(table.name));
    const now = engine.clock.now();
    history.trim(now);
    const earliest = history.earliest(now);
    const exportType = input.ExportType ?? 'FULL_EXPORT';
    const id = newId(now);
    const arn = `${table.arn}/export/${id}`;
    const base = {
      exportArn: arn,
      exportId: id,
      tableArn: table.arn,
      tableId: table.tableId,
      bucket: input.S3Bucket,
      bucketOwner: input.S3BucketOwner,
      prefix: input.S3Prefix,
      sseAlgorithm: input.S3SseAlgorithm,
      sseKmsKeyId: input.S3SseKmsKeyId,
      format: input.ExportFormat ?? 'DYNAMODB_JSON',
      startTime: now,
    } as const;
    let job: ExportJob;
    const description: Record<string, unknown> = {
      ExportArn: arn,
      ExportStatus: 'IN_PROGRESS',
      StartTime: now / 1000,
      TableArn: table.arn,
      TableId: table.tableId,
    };
    if (exportType === 'FULL_EXPORT') {
      const exportTime = input.ExportTime === undefined ? now : input.ExportTime * 1000;
      if (exportTime < earliest - 999 || exportTime > now)
        throw new InvalidExportTimeException(ExportMessages.exportTime(earliest, now));
      const overrides = exportTime >= now ? undefined : history.valuesAt(Math.max(exportTime, earliest));
      job = { ...base, exportType, exportTime, items: itemsOf(table.items.freeze(), overrides) };
      description.ExportTime = exportTime / 1000;
    } else {
      const specification = input.IncrementalExportSpecification;
      if (input.ExportTime !== undefined)
        throw new ValidationException(ExportMessages.exportTimeWithIncremental);
      if (specification?.ExportFromTime === undefined)
        throw new ValidationException(ExportMessages.incrementalNeedsSpecification);
      const from = specification.ExportFromTime * 1000;
      // "If this is not provided, the latest time with data available will be used."
      const to =
        specification.ExportToTime === undefined
          ? now - LATEST_RESTORABLE_LAG_MS
          : specification.ExportToTime * 1000;
      if (to - from < MIN_INCREMENTAL_MS || to - from > MAX_INCREMENTAL_MS)
        throw new InvalidExportTimeException(ExportMessages.window);
      if (from < earliest - 999) throw new InvalidExportTimeException(ExportMessages.fromTime(earliest));
      if (to > now) throw new InvalidExportTimeException(ExportMessages.toTime);
      const viewType = specification.ExportViewType ?? 'NEW_AND_OLD_IMAGES';
      job = {
        ...base,
        exportType,
        exportTime: to,
        exportFromTime: from,
        exportToTime: to,
        viewType,
        changes: incrementalRecords(table, history.changesBetween(from, to)),
      };
      description.IncrementalExportSpecification = {
        ExportFromTime: from / 1000,
        ExportToTime: to / 1000,
        ExportViewType: viewType,
      };
      description.ExportTime = to / 1000;
    }
    description.ClientToken = tokenOf(input.ClientToken);
    Object.assign(description, {
      S3Bucket: input.S3Bucket,
      ...(input.S3BucketOwner === undefined ? {} : { S3BucketOwner: input.S3BucketOwner }),
      ...(input.S3Prefix === undefined ? {} : { S3Prefix: input.S3Prefix }),
      S3SseAlgorithm: input.S3SseAlgorithm ?? 'AES256',
      ...(input.S3SseKmsKeyId === undefined ? {} : { S3SseKmsKeyId: input.S3SseKmsKeyId }),
      ExportFormat: job.format,
      ExportType: exportType,
    });
    const record: TransferRecord = {
      arn,
      accountId: region.accountId,
      regionName: region.name,
      tableArn: table.arn,
      description,
      request,
    };
    protection.exports.set(arn, record);
    const response = { ExportDescription: { ...description } };
    protection.track(runExport(protection, record, job));
    protection.changed();
    return response;
  },
});

async function runExport(
  protection: import('../backups/dataProtection.js').DataProtection,
  record: TransferRecord,
  job: ExportJob,
): Promise<void> {
  const description = record.description;
  try {
    const target = protection.exportTarget;
    if (target === undefined)
      throw new DataTransferFailure('UNKNOWN', 'eddy has no export target configured');
    const result = await target.write(job);
    Object.assign(description, {
      ExportStatus: 'COMPLETED',
      EndTime: result.endTime / 1000,
      ExportManifest: result.manifestKey,
      BilledSizeBytes: result.billedSizeBytes,
      ItemCount: result.itemCount,
    });
  } catch (error) {
    Object.assign(description, {
      ExportStatus: 'FAILED',
      EndTime: Date.now() / 1000,
      FailureCode: error instanceof DataTransferFailure ? error.code : 'UNKNOWN',
      FailureMessage: error instanceof Error ? error.message : String(error),
    });
  }
  protection.changed();
}

/** The net changes as export lines: keys from whichever image the change has. */
function* incrementalRecords(
  table: Table,
  changes: readonly IncrementalChange[],
): Generator<IncrementalRecord> {
  for (const change of changes) {
    const image = (change.next ?? change.old)!;
    yield {
      at: change.at,
      keys: extractItemKey(image.decode(), table.key).keys,
      newItem: change.next ?? undefined,
      oldItem: change.old ?? undefined,
    };
  }
}
