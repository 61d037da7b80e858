import type { Command } from 'commander';
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
is enforced (eddy serve --capacity enforce) or faults are injected (docs/capacity.md).

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
        const { Tables } = (await response.json()) as { Tables: ResourceFigures[] };
        printStats(io, Tables);
      } catch (error) {
        const wrapped = error instanceof UsageError ? error : new EndpointError(error, endpoint);
        io.printError(`eddy tables stats: ${wrapped.message}`);
        io.exit(error instanceof UsageError ? 2 : 1);
      }
    });
  return tables;
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
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    io.print(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
}
