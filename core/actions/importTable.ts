import { recordOfToken, tokenOf } from '../backups/clientTokens.js';
import { newId, type TransferRecord } from '../backups/dataProtection.js';
import { runImport } from '../backups/importJob.js';
import { BackupMessages, ImportConflictException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { type ImportTableInput, importTableShape } from '../validations/importTable.js';

/**
 * ImportTable: creates the table from `TableCreationParameters` (CreateTable's checks and errors,
 * e.g. ResourceInUseException for an existing table), then fills it from the source in the
 * background; the table is CREATING until the import ends (docs/backups.md §4).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ImportTable.html
 */
export const importTable = defineOperation<ImportTableInput, Record<string, unknown>>({
  name: 'ImportTable',
  shape: importTableShape,
  execute({ engine, region, request }, input) {
    const parameters = input.TableCreationParameters;
    if (input.ClientToken !== undefined) {
      const earlier = recordOfToken(
        engine.dataProtection.imports,
        region.accountId,
        region.name,
        input.ClientToken,
        engine.clock.now(),
      );
      if (earlier !== undefined) {
        const replay = replayOf(earlier, parameters.TableName);
        if (replay !== undefined) return replay;
      }
    }
    engine.executeRaw('CreateTable', { BillingMode: 'PROVISIONED', ...parameters }, request);
    const table = region.tables.get(parameters.TableName)!;
    table.status = 'CREATING';
    engine.tableChanged(region, table, 'updated');
    const now = engine.clock.now();
    const arn = `${table.arn}/import/${newId(now)}`;
    const format = input.InputFormat;
    const compression = input.InputCompressionType ?? 'NONE';
    const description: Record<string, unknown> = {
      ImportArn: arn,
      ImportStatus: 'IN_PROGRESS',
      TableArn: table.arn,
      TableId: table.tableId,
      ClientToken: tokenOf(input.ClientToken),
      S3BucketSource: structuredClone(input.S3BucketSource),
      ErrorCount: 0,
      // Where the service logs bad items; eddy logs them to its own log.
      CloudWatchLogGroupArn: `arn:aws:logs:${region.name}:${region.accountId}:log-group:/aws-dynamodb/imports:*`,
      InputFormat: format,
      ...(input.InputFormatOptions === undefined
        ? {}
        : { InputFormatOptions: structuredClone(input.InputFormatOptions) }),
      InputCompressionType: compression,
      TableCreationParameters: structuredClone(parameters),
      StartTime: now / 1000,
      // No ProcessedSizeBytes until the import has read something, and counters that stay 0
      // until it ends (measured against AWS: docs/backups.md §4.3).
      ProcessedItemCount: 0,
      ImportedItemCount: 0,
    };
    const record: TransferRecord = {
      arn,
      accountId: region.accountId,
      regionName: region.name,
      tableArn: table.arn,
      description,
    };
    const protection = engine.dataProtection;
    protection.imports.set(arn, record);
    const keyTypes = new Map<string, 'S' | 'N' | 'B'>();
    for (const element of table.keySchema) {
      const definition = table.attributeDefinitions.find(
        (candidate) => candidate.AttributeName === element.AttributeName,
      );
      if (definition !== undefined) keyTypes.set(definition.AttributeName, definition.AttributeType);
    }
    for (const index of table.secondaryIndexes())
      for (const element of index.keySchema) {
        const definition = table.attributeDefinitions.find(
          (candidate) => candidate.AttributeName === element.AttributeName,
        );
        if (definition !== undefined) keyTypes.set(definition.AttributeName, definition.AttributeType);
      }
    const response = { ImportTableDescription: structuredClone(description) };
    protection.track(
      runImport(engine, region, table, record, {
        bucket: input.S3BucketSource.S3Bucket,
        bucketOwner: input.S3BucketSource.S3BucketOwner,
        prefix: input.S3BucketSource.S3KeyPrefix,
        format,
        compression,
        ...(input.InputFormatOptions?.Csv === undefined
          ? {}
          : {
              csv: {
                ...(input.InputFormatOptions.Csv.Delimiter === undefined
                  ? {}
                  : { delimiter: input.InputFormatOptions.Csv.Delimiter }),
                ...(input.InputFormatOptions.Csv.HeaderList === undefined
                  ? {}
                  : { headerList: input.InputFormatOptions.Csv.HeaderList }),
              },
            }),
        keyTypes,
        tableKeys:
          table.globalSecondaryIndexes.size > 0 || table.localSecondaryIndexes.size > 0
            ? undefined
            : table.keySchema.map((element) => element.AttributeName),
      }),
    );
    protection.changed();
    return response;
  },
});

/**
 * ImportTable again with a token an import of the last 8 hours took. Measured against AWS
 * (scylladb/scylladb test/alternator/test_import.py, test_client_token_reuse): only another
 * target table conflicts (ImportConflictException, not the IdempotentParameterMismatch the
 * ClientToken documentation names); the same table answers the original import whatever else
 * changed (bucket, prefix, format, compression). Once the import has ended its table exists,
 * and CreateTable's ResourceInUseException comes first: undefined lets the call go on to it
 * (and, if the table has been deleted since, to a new import).
 */
function replayOf(
  earlier: TransferRecord,
  tableName: string,
): { ImportTableDescription: Record<string, unknown> } | undefined {
  const parameters = earlier.description.TableCreationParameters as { TableName: string };
  if (parameters.TableName !== tableName) throw new ImportConflictException(BackupMessages.duplicateRequest);
  if (earlier.description.ImportStatus !== 'IN_PROGRESS') return undefined;
  return { ImportTableDescription: structuredClone(earlier.description) };
}
