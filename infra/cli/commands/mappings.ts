import type { EventSourceMappingConfiguration, LambdaClient } from '@aws-sdk/client-lambda';
import type { Command } from 'commander';
import type { CliIo } from '../program.js';
import {
  checkCredentialFlags,
  EndpointError,
  optionalConfig,
  type ServiceCliOptions,
  UsageError,
  withServiceOptions,
} from './serviceOptions.js';

const MAPPINGS_HELP = `
Lists the event source mappings of a running eddy (the config's and those created through the
Lambda API) with their state, iterator age (how old the oldest unprocessed record is), last
processing result and how many failed batches went to their on-failure destination. The list
comes from the Lambda API (ListEventSourceMappings); iterator age and destination count from
eddy's /_eddy/api/mappings, so against AWS (--aws) those two columns read "-".

disable NAME pauses a mapping where it is (UpdateEventSourceMapping Enabled=false); enable NAME
resumes it from there, backlog first. NAME is the mapping's UUID, its function's name, or
FUNCTION:TABLE when the function reads several tables.

Examples:
  eddy mappings
  eddy mappings disable onOrder
  eddy mappings enable onOrder:Orders
  eddy mappings --endpoint http://127.0.0.1:8001`;

/** A mapping as `eddy mappings` shows it. */
interface MappingRow {
  readonly uuid: string;
  readonly functionName: string;
  readonly table: string;
  readonly state: string;
  readonly lastResult: string;
  readonly iteratorAgeMs: number | undefined;
  readonly destinationCount: number | undefined;
}

/** Adds `eddy mappings [disable|enable NAME]`. */
export function addMappingsCommand(program: Command, io: CliIo): Command {
  const mappings = withServiceOptions(
    program
      .command('mappings')
      .description('List the event source mappings of a running eddy; disable or enable one.'),
  )
    .addHelpText('after', MAPPINGS_HELP)
    .action(async (options: ServiceCliOptions) =>
      run(io, options, (client, target) => list(io, client, target)),
    );
  for (const [verb, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    withServiceOptions(
      mappings
        .command(`${verb} <name>`)
        .description(
          `${verb === 'disable' ? 'Pause' : 'Resume'} a mapping (UUID, function, or FUNCTION:TABLE).`,
        ),
    ).action(async (name: string, options: ServiceCliOptions) =>
      run(io, { ...mappings.opts(), ...options }, (client) => setEnabled(io, client, name, enabled)),
    );
  }
  return mappings;
}

async function run(
  io: CliIo,
  options: ServiceCliOptions,
  work: (client: LambdaClient, endpoint: string | undefined) => Promise<void>,
): Promise<void> {
  let client: LambdaClient | undefined;
  let endpoint: string | undefined;
  try {
    checkCredentialFlags(options);
    const { config } = await optionalConfig(options, io.cwd);
    const { clientConfig, serviceTarget } = await import('../../replay/serviceTarget.js');
    const target = serviceTarget(options, config);
    endpoint = target.endpoint;
    const { LambdaClient } = await import('@aws-sdk/client-lambda');
    client = new LambdaClient(clientConfig(target));
    await work(client, endpoint);
  } catch (error) {
    // A service's answer (it has a fault side) is shown as is; a network failure says what to do.
    const wrapped =
      error instanceof UsageError || (error as { $fault?: unknown }).$fault !== undefined
        ? error
        : new EndpointError(error, endpoint);
    io.printError(`eddy mappings: ${wrapped instanceof Error ? wrapped.message : String(wrapped)}`);
    io.exit(error instanceof UsageError ? 2 : 1);
  } finally {
    client?.destroy();
  }
}

/** Every mapping, every page. */
async function allMappings(client: LambdaClient): Promise<EventSourceMappingConfiguration[]> {
  const { ListEventSourceMappingsCommand } = await import('@aws-sdk/client-lambda');
  const all: EventSourceMappingConfiguration[] = [];
  let marker: string | undefined;
  do {
    const page = await client.send(new ListEventSourceMappingsCommand({ Marker: marker }));
    all.push(...(page.EventSourceMappings ?? []));
    marker = page.NextMarker;
  } while (marker !== undefined);
  return all;
}

/** `arn:aws:dynamodb:…:table/Orders/stream/…` → `Orders`. */
function tableOf(arn: string | undefined): string {
  return /:table\/([^/]+)/.exec(arn ?? '')?.[1] ?? arn ?? '-';
}

function functionOf(arn: string | undefined): string {
  return /:function:([^:]+)/.exec(arn ?? '')?.[1] ?? arn ?? '-';
}

/** eddy's run-time view of its mappings, when the endpoint is an eddy (`/_eddy/api/mappings`). */
async function runtimeStates(
  endpoint: string | undefined,
): Promise<Map<string, { iteratorAgeMs: number; destinationCount: number }>> {
  const states = new Map<string, { iteratorAgeMs: number; destinationCount: number }>();
  if (endpoint === undefined) return states;
  try {
    const response = await fetch(new URL('/_eddy/api/mappings', endpoint));
    if (!response.ok) return states;
    const { Mappings } = (await response.json()) as {
      Mappings: { uuid: string; iteratorAgeMs: number; destinationCount: number }[];
    };
    for (const mapping of Mappings) states.set(mapping.uuid, mapping);
  } catch {
    // Not an eddy (or an older one): the Lambda API's columns still stand.
  }
  return states;
}

async function list(io: CliIo, client: LambdaClient, endpoint: string | undefined): Promise<void> {
  const [configurations, states] = await Promise.all([allMappings(client), runtimeStates(endpoint)]);
  const rows: MappingRow[] = configurations.map((mapping) => {
    const state = states.get(mapping.UUID ?? '');
    return {
      uuid: mapping.UUID ?? '-',
      functionName: functionOf(mapping.FunctionArn),
      table: tableOf(mapping.EventSourceArn),
      state: mapping.State ?? '-',
      lastResult: mapping.LastProcessingResult ?? '-',
      iteratorAgeMs: state?.iteratorAgeMs,
      destinationCount: state?.destinationCount,
    };
  });
  if (rows.length === 0) {
    io.print('no event source mappings');
    return;
  }
  const table = [
    ['UUID', 'FUNCTION', 'TABLE', 'STATE', 'ITERATOR AGE', 'LAST RESULT', 'DESTINATIONS'],
    ...rows.map((row) => [
      row.uuid,
      row.functionName,
      row.table,
      row.state,
      row.iteratorAgeMs === undefined ? '-' : formatAge(row.iteratorAgeMs),
      row.lastResult,
      row.destinationCount === undefined ? '-' : String(row.destinationCount),
    ]),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((line) => line[column]!.length)));
  for (const line of table)
    io.print(
      line
        .map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    );
}

/** `0 ms`, `850 ms`, `12.3 s`, `4.0 min`, `2.5 h`. */
export function formatAge(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

async function setEnabled(io: CliIo, client: LambdaClient, name: string, enabled: boolean): Promise<void> {
  const mappings = await allMappings(client);
  const [functionName, table] = name.split(':');
  const byUuid = mappings.filter((mapping) => mapping.UUID === name);
  const matches =
    byUuid.length > 0
      ? byUuid
      : mappings.filter(
          (mapping) =>
            functionOf(mapping.FunctionArn) === functionName &&
            (table === undefined || tableOf(mapping.EventSourceArn) === table),
        );
  if (matches.length === 0)
    throw new UsageError(`no event source mapping named ${name} (see \`eddy mappings\`)`);
  if (matches.length > 1)
    throw new UsageError(
      `${name} names ${matches.length} mappings: use FUNCTION:TABLE or a UUID (${matches
        .map((mapping) => `${functionOf(mapping.FunctionArn)}:${tableOf(mapping.EventSourceArn)}`)
        .join(', ')})`,
    );
  const mapping = matches[0]!;
  const { UpdateEventSourceMappingCommand } = await import('@aws-sdk/client-lambda');
  const answer = await client.send(
    new UpdateEventSourceMappingCommand({ UUID: mapping.UUID, Enabled: enabled }),
  );
  io.print(
    `${answer.UUID} ${functionOf(answer.FunctionArn)} ← ${tableOf(answer.EventSourceArn)} stream: ${answer.State}`,
  );
}
