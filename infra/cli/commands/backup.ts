import type { BackupSummary, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Command } from 'commander';
import type { CliIo } from '../program.js';
import { type JobCliOptions, progressFor, runDynamo, waitFor } from './dynamoCommand.js';
import { type ServiceCliOptions, UsageError, withServiceOptions } from './serviceOptions.js';

const BACKUP_HELP = `
On-demand backups of a running eddy (or AWS with --aws), through the DynamoDB API
(docs/backups.md): ls lists them (ListBackups), create takes one and waits until it is
AVAILABLE (CreateBackup), restore makes a new table from one and waits until it is ACTIVE
(RestoreTableFromBackup), with a progress bar on a terminal. A backup is named by its ARN or,
when unique, by its name.

Examples:
  eddy backup ls
  eddy backup ls --table Orders
  eddy backup create Orders --name before-migration
  eddy backup restore before-migration OrdersCopy`;

/** Adds `eddy backup ls|create|restore`. */
export function addBackupCommand(program: Command, io: CliIo): Command {
  const backup = program
    .command('backup')
    .description('List, take and restore on-demand backups of a running eddy.')
    .addHelpText('after', BACKUP_HELP);
  withServiceOptions(backup.command('ls').description('List backups (every page).'))
    .option('-t, --table <name>', 'only the backups of this table')
    .action(async (options: ServiceCliOptions & { table?: string }) =>
      runDynamo(io, 'backup ls', options, async (client) => {
        const backups = await allBackups(client, options.table);
        if (backups.length === 0) {
          io.print('no backups');
          return;
        }
        const rows = backups.map((entry) => [
          entry.BackupName ?? '-',
          entry.TableName ?? '-',
          entry.BackupStatus ?? '-',
          entry.BackupType ?? '-',
          entry.BackupCreationDateTime?.toISOString() ?? '-',
          String(entry.BackupSizeBytes ?? 0),
          entry.BackupArn ?? '-',
        ]);
        printColumns(io, ['NAME', 'TABLE', 'STATUS', 'TYPE', 'CREATED', 'BYTES', 'ARN'], rows);
      }),
    );
  withServiceOptions(
    backup.command('create <table>').description('Take a backup and wait until it is AVAILABLE.'),
  )
    .option('-n, --name <name>', 'the backup name (default: <table>-<UTC time>)')
    .option('--no-wait', 'answer at once, while the backup is CREATING')
    .option('--no-progress', 'no progress bar (there is none when stderr is not a terminal)')
    .action(async (table: string, options: JobCliOptions & { name?: string }) =>
      runDynamo(io, 'backup create', options, async (client) => {
        const sdk = await import('@aws-sdk/client-dynamodb');
        const name = options.name ?? `${table}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        const { BackupDetails } = await client.send(
          new sdk.CreateBackupCommand({ TableName: table, BackupName: name }),
        );
        const arn = BackupDetails!.BackupArn!;
        let status = BackupDetails!.BackupStatus;
        if (options.wait !== false && status === 'CREATING') {
          const progress = await progressFor(io, options, `backing up ${table}`, 'checks');
          status = await waitFor(async () => {
            const { BackupDescription } = await client.send(
              new sdk.DescribeBackupCommand({ BackupArn: arn }),
            );
            const now = BackupDescription?.BackupDetails?.BackupStatus;
            return { done: now !== 'CREATING', count: 0, answer: now };
          }, progress);
        }
        io.print(`backup ${name} of ${table}: ${status}`);
        io.print(arn);
      }),
    );
  withServiceOptions(
    backup
      .command('restore <backup> <target-table>')
      .description('Restore a backup (ARN or name) into a new table and wait until it is ACTIVE.'),
  )
    .option('--no-wait', 'answer at once, while the table is CREATING')
    .option('--no-progress', 'no progress bar (there is none when stderr is not a terminal)')
    .action(async (named: string, target: string, options: JobCliOptions) =>
      runDynamo(io, 'backup restore', options, async (client) => {
        const sdk = await import('@aws-sdk/client-dynamodb');
        const arn = await backupArnOf(client, named);
        const { BackupDescription } = await client.send(new sdk.DescribeBackupCommand({ BackupArn: arn }));
        const total = BackupDescription?.SourceTableDetails?.ItemCount ?? 0;
        await client.send(new sdk.RestoreTableFromBackupCommand({ BackupArn: arn, TargetTableName: target }));
        let items = 0;
        if (options.wait !== false) {
          const progress = await progressFor(io, options, `restoring ${target}`, 'items', total);
          items = await waitFor(async () => {
            const { Table } = await client.send(new sdk.DescribeTableCommand({ TableName: target }));
            const count = Table?.ItemCount ?? 0;
            return { done: Table?.TableStatus === 'ACTIVE', count, answer: count };
          }, progress);
          io.print(`restored ${items} items into ${target}`);
        } else io.print(`restoring into ${target}`);
      }),
    );
  return backup;
}

async function allBackups(client: DynamoDBClient, table: string | undefined): Promise<BackupSummary[]> {
  const { ListBackupsCommand } = await import('@aws-sdk/client-dynamodb');
  const all: BackupSummary[] = [];
  let start: string | undefined;
  do {
    const page = await client.send(
      new ListBackupsCommand({
        ...(table === undefined ? {} : { TableName: table }),
        ...(start === undefined ? {} : { ExclusiveStartBackupArn: start }),
      }),
    );
    all.push(...(page.BackupSummaries ?? []));
    start = page.LastEvaluatedBackupArn;
  } while (start !== undefined);
  return all;
}

/** An ARN as given; a name must name exactly one backup. */
async function backupArnOf(client: DynamoDBClient, named: string): Promise<string> {
  if (named.startsWith('arn:')) return named;
  const matches = (await allBackups(client, undefined)).filter((entry) => entry.BackupName === named);
  if (matches.length === 1) return matches[0]!.BackupArn!;
  throw new UsageError(
    matches.length === 0
      ? `no backup is named ${named} (eddy backup ls lists them)`
      : `${matches.length} backups are named ${named}: give the ARN`,
  );
}

function printColumns(io: CliIo, header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ');
  io.print(line(header));
  for (const row of rows) io.print(line(row));
}
