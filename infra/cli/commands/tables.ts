import type { Command } from 'commander';
import type { InsightsFigures } from '../../../core/insights/contributorInsights.js';
import type { ResourceFigures } from '../../../core/throttling/metrics.js';
import { METRICS_PATH } from '../../capacity/metricsService.js';
import type { CliIo } from '../program.js';
import {
  checkCredentialFlags,
  EndpointError,
  optionalConfig,
  type ServiceCliOptions,
  UsageError,
  withServiceOptions,
} from './serviceOptions.js';

const STATS_HELP = `
Shows, per table and global secondary index of a running eddy, the capacity it consumed and the
requests throttled (CloudWatch's ConsumedRead/WriteCapacityUnits and Read/WriteThrottleEvents),
since start and in the last second, from eddy's /_eddy/metrics. Figures are kept while capacity
is enforced (eddy serve --capacity enforce) or faults are injected (docs/capacity.md). Tables and
indexes with Contributor Insights on also show their most accessed and most throttled partition
keys (docs/contributor-insights-and-endpoints.md).

Examples:
  eddy tables stats
  eddy tables stats --endpoint http://127.0.0.1:8001`;

/** Adds `eddy tables stats`. */
export function addTablesCommand(program: Command, io: CliIo): Command {
  const tables = program.command('tables').description('Look at the tables of a running eddy.');
  withServiceOptions(
    tables.command('stats').description('Consumed capacity and throttled requests per table and index.'),
  )
    .addHelpText('after', STATS_HELP)
    .action(async (options: ServiceCliOptions) => {
      let endpoint: string | undefined;
      try {
        checkCredentialFlags(options);
        if (options.aws) throw new UsageError('eddy tables stats reads an eddy; for AWS, see CloudWatch');
        const { config } = await optionalConfig(options, io.cwd);
        const { serviceTarget } = await import('../../replay/serviceTarget.js');
        endpoint = serviceTarget(options, config).endpoint;
        const response = await fetch(new URL(METRICS_PATH, endpoint));
        if (!response.ok) throw new Error(`${endpoint} answered ${response.status} for ${METRICS_PATH}`);
        const { Tables, ContributorInsights } = (await response.json()) as {
          Tables: ResourceFigures[];
          ContributorInsights?: InsightsFigures[];
        };
        printStats(io, Tables);
        printInsights(io, ContributorInsights ?? []);
      } catch (error) {
        const wrapped = error instanceof UsageError ? error : new EndpointError(error, endpoint);
        io.printError(`eddy tables stats: ${wrapped.message}`);
        io.exit(error instanceof UsageError ? 2 : 1);
      }
    });
  return tables;
}

/** Prints rows as columns padded to their widest cell. */
function printRows(io: CliIo, rows: readonly string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    io.print(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
}

/**
 * The most accessed and most throttled partition keys of every table and GSI with Contributor
 * Insights on (docs/contributor-insights-and-endpoints.md §2.3): what the CloudWatch rules'
 * reports show, from eddy's own traffic.
 */
function printInsights(io: CliIo, figures: readonly InsightsFigures[]): void {
  if (figures.length === 0) return;
  const keys = (counts: readonly { key: string; count: number }[]) =>
    counts.length === 0 ? '-' : counts.map((entry) => `${entry.key} (${entry.count})`).join(', ');
  io.print('');
  io.print('Contributor Insights: most accessed and most throttled partition keys (top 10)');
  printRows(io, [
    ['TABLE', 'INDEX', 'STATUS', 'MOST ACCESSED', 'MOST THROTTLED'],
    ...figures.map((entry) => [
      entry.table,
      entry.index ?? '-',
      entry.status,
      keys(entry.mostAccessedKeys),
      keys(entry.mostThrottledKeys),
    ]),
  ]);
}

function printStats(io: CliIo, figures: readonly ResourceFigures[]): void {
  if (figures.length === 0) {
    io.print('no capacity figures (capacity is not enforced and no fault was injected)');
    return;
  }
  const units = (value: number) => String(Math.round(value * 10) / 10);
  const rows = [
    ['TABLE', 'INDEX', 'READ UNITS', 'WRITE UNITS', 'READ THROTTLES', 'WRITE THROTTLES', 'LAST SECOND R/W'],
    ...figures.map((entry) => [
      entry.table,
      entry.index ?? '-',
      units(entry.consumedReadCapacityUnits),
      units(entry.consumedWriteCapacityUnits),
      String(entry.readThrottleEvents),
      String(entry.writeThrottleEvents),
      `${units(entry.readUnitsLastSecond)}/${units(entry.writeUnitsLastSecond)}`,
    ]),
  ];
  printRows(io, rows);
}
