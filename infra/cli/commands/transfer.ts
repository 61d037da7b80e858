import type { Command } from 'commander';
import type { CliIo } from '../program.js';
import { type JobCliOptions, parseTime, progressFor, runDynamo, waitFor } from './dynamoCommand.js';
import { UsageError, withServiceOptions } from './serviceOptions.js';

const EXPORT_HELP = `
Exports a table of a running eddy (or AWS with --aws) to a bucket in DynamoDB's export layout
(ExportTableToPointInTime; the table needs point-in-time recovery on) and waits until it is
COMPLETED, with a progress bar on a terminal. eddy's buckets are folders of --buckets-dir
(default <data dir>/buckets or .eddy/buckets) or those of its --s3-endpoint (docs/backups.md §6).

Examples:
  eddy export Orders --bucket exports
  eddy export Orders --bucket exports --prefix nightly --format ION
  eddy export Orders --bucket exports --from 2026-01-01T10:00:00Z --to 2026-01-01T11:00:00Z`;

const IMPORT_HELP = `
Creates a table from a bucket's objects (ImportTable) and waits until the import ends, with a
progress bar on a terminal. Bad lines are counted and logged by eddy; the import goes on.

Examples:
  eddy import --bucket exports --prefix AWSDynamoDB/<export id>/data/ --table OrdersCopy --key id:S
  eddy import --bucket uploads --prefix users.csv --table Users --key id:S --format CSV --compression NONE`;

interface ExportOptions extends JobCliOptions {
  readonly bucket: string;
  readonly prefix?: string;
  readonly format?: string;
  readonly at?: string;
  readonly from?: string;
  readonly to?: string;
  readonly view?: string;
}

interface ImportOptions extends JobCliOptions {
  readonly bucket: string;
  readonly prefix?: string;
  readonly table: string;
  readonly key: string;
  readonly format?: string;
  readonly compression?: string;
  readonly delimiter?: string;
  readonly header?: string;
}

/** Adds `eddy export <table>`. */
export function addExportCommand(program: Command, io: CliIo): Command {
  return withServiceOptions(
    program
      .command('export <table>')
      .description('Export a table to a bucket and wait until it is COMPLETED.'),
  )
    .requiredOption('-b, --bucket <name>', 'the bucket')
    .option('-p, --prefix <prefix>', 'key prefix in the bucket')
    .option('-f, --format <format>', 'DYNAMODB_JSON (default) or ION')
    .option('--at <time>', 'a full export of the table as it was then (default: now)')
    .option('--from <time>', 'an incremental export of the changes from this time (with --to)')
    .option('--to <time>', 'the end of the incremental window (excluded)')
    .option('--view <view>', 'incremental: NEW_AND_OLD_IMAGES (default) or NEW_IMAGE')
    .option('--no-wait', 'answer at once, while the export is IN_PROGRESS')
    .option('--no-progress', 'no progress bar (there is none when stderr is not a terminal)')
    .addHelpText('after', EXPORT_HELP)
    .action(async (table: string, options: ExportOptions) =>
      runDynamo(io, 'export', options, async (client) => {
        const sdk = await import('@aws-sdk/client-dynamodb');
        if ((options.from === undefined) !== (options.to === undefined))
          throw new UsageError('--from and --to go together');
        const { Table } = await client.send(new sdk.DescribeTableCommand({ TableName: table }));
        const incremental = options.from !== undefined;
        const { ExportDescription } = await client.send(
          new sdk.ExportTableToPointInTimeCommand({
            TableArn: Table!.TableArn!,
            S3Bucket: options.bucket,
            ...(options.prefix === undefined ? {} : { S3Prefix: options.prefix }),
            ...(options.format === undefined ? {} : { ExportFormat: options.format as 'ION' }),
            ...(options.at === undefined ? {} : { ExportTime: parseTime(options.at, '--at') }),
            ...(incremental
              ? {
                  ExportType: 'INCREMENTAL_EXPORT' as const,
                  IncrementalExportSpecification: {
                    ExportFromTime: parseTime(options.from!, '--from'),
                    ExportToTime: parseTime(options.to!, '--to'),
                    ...(options.view === undefined ? {} : { ExportViewType: options.view as 'NEW_IMAGE' }),
                  },
                }
              : {}),
          }),
        );
        const arn = ExportDescription!.ExportArn!;
        if (options.wait === false) {
          io.print(`exporting ${table}: ${arn}`);
          return;
        }
        const progress = await progressFor(io, options, `exporting ${table}`, 'checks');
        const done = await waitFor(async () => {
          const answer = (await client.send(new sdk.DescribeExportCommand({ ExportArn: arn })))
            .ExportDescription!;
          return { done: answer.ExportStatus !== 'IN_PROGRESS', count: 0, answer };
        }, progress);
        if (done.ExportStatus !== 'COMPLETED')
          throw new UsageError(
            `export ${arn} ${done.ExportStatus}: ${done.FailureCode} ${done.FailureMessage}`,
          );
        io.print(`exported ${done.ItemCount} items of ${table} to ${options.bucket}/${done.ExportManifest}`);
        io.print(arn);
      }),
    );
}

/** `id:S,sort:N` → key schema and attribute definitions. */
function keysOf(spec: string) {
  const parts = spec.split(',').map((part) => part.split(':'));
  if (parts.length > 2 || parts.some((part) => part.length !== 2 || !['S', 'N', 'B'].includes(part[1]!)))
    throw new UsageError('--key must be NAME:TYPE or HASH:TYPE,RANGE:TYPE with types S, N or B');
  return {
    KeySchema: parts.map(([name], index) => ({
      AttributeName: name!,
      KeyType: index === 0 ? ('HASH' as const) : ('RANGE' as const),
    })),
    AttributeDefinitions: parts.map(([name, type]) => ({ AttributeName: name!, AttributeType: type as 'S' })),
  };
}

/** Adds `eddy import`. */
export function addImportCommand(program: Command, io: CliIo): Command {
  return withServiceOptions(
    program
      .command('import')
      .description("Create a table from a bucket's objects and wait until the import ends."),
  )
    .requiredOption('-b, --bucket <name>', 'the bucket')
    .option('-p, --prefix <prefix>', 'key prefix of the objects to import')
    .requiredOption('-t, --table <name>', 'the table to create')
    .requiredOption('-k, --key <spec>', 'its key: NAME:TYPE or HASH:TYPE,RANGE:TYPE (S, N or B)')
    .option('-f, --format <format>', 'DYNAMODB_JSON (default), ION or CSV')
    .option('--compression <type>', 'GZIP (default), ZSTD or NONE')
    .option('--delimiter <char>', 'CSV: the delimiter (default ,)')
    .option('--header <names>', 'CSV: the column names, comma-separated (default: the first line)')
    .option('--no-wait', 'answer at once, while the import is IN_PROGRESS')
    .option('--no-progress', 'no progress bar (there is none when stderr is not a terminal)')
    .addHelpText('after', IMPORT_HELP)
    .action(async (options: ImportOptions) =>
      runDynamo(io, 'import', options, async (client) => {
        const sdk = await import('@aws-sdk/client-dynamodb');
        const format = (options.format ?? 'DYNAMODB_JSON') as 'CSV';
        const csv =
          options.delimiter === undefined && options.header === undefined
            ? {}
            : {
                InputFormatOptions: {
                  Csv: {
                    ...(options.delimiter === undefined ? {} : { Delimiter: options.delimiter }),
                    ...(options.header === undefined ? {} : { HeaderList: options.header.split(',') }),
                  },
                },
              };
        const { ImportTableDescription } = await client.send(
          new sdk.ImportTableCommand({
            S3BucketSource: {
              S3Bucket: options.bucket,
              ...(options.prefix === undefined ? {} : { S3KeyPrefix: options.prefix }),
            },
            InputFormat: format,
            InputCompressionType: (options.compression ?? 'GZIP') as 'GZIP',
            ...csv,
            TableCreationParameters: {
              TableName: options.table,
              ...keysOf(options.key),
              BillingMode: 'PAY_PER_REQUEST',
            },
          }),
        );
        const arn = ImportTableDescription!.ImportArn!;
        if (options.wait === false) {
          io.print(`importing into ${options.table}: ${arn}`);
          return;
        }
        const progress = await progressFor(io, options, `importing ${options.table}`, 'items');
        const done = await waitFor(async () => {
          const answer = (await client.send(new sdk.DescribeImportCommand({ ImportArn: arn })))
            .ImportTableDescription!;
          return {
            done: answer.ImportStatus !== 'IN_PROGRESS',
            count: answer.ProcessedItemCount ?? 0,
            answer,
          };
        }, progress);
        io.print(
          `imported ${done.ImportedItemCount ?? 0} of ${done.ProcessedItemCount ?? 0} items into ${options.table}` +
            ` (${done.ErrorCount ?? 0} errors): ${done.ImportStatus}`,
        );
        io.print(arn);
        if (done.ImportStatus !== 'COMPLETED') io.exit(1);
      }),
    );
}
