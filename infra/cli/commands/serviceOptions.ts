import { type Command, InvalidArgumentError } from 'commander';
import { parseDuration } from '../../../core/clock.js';
import type { EddyConfig } from '../../config.js';
import type { ServiceTargetOptions } from '../../replay/serviceTarget.js';
import { loadStack } from '../../stack/sources/index.js';
import { parseRegion } from '../serveProgram.js';
import { type FormatCliOptions, formatOptionsOf, withStackOptions } from './stackOptions.js';

/**
 * Options shared by the commands that talk to a DynamoDB endpoint (`eddy record`, `eddy event`):
 * a running eddy by default (the config's server, else http://127.0.0.1:8000), or AWS.
 */
export interface ServiceCliOptions extends ServiceTargetOptions, FormatCliOptions {
  /** A config file; `false` (`--no-config`) ignores eddy.config.* in the working directory. */
  readonly config?: string | false;
  readonly template?: string;
  readonly parameterOverrides?: Readonly<Record<string, string>>;
  readonly cdk?: boolean;
}

export function withServiceOptions(command: Command): Command {
  return withStackOptions(command)
    .option(
      '--endpoint <url>',
      "DynamoDB endpoint (default: the config's eddy server, else http://127.0.0.1:8000)",
    )
    .option('--aws', 'talk to AWS itself: the SDK endpoints and credential chain')
    .option(
      '-r, --region <name>',
      "region (default: the config's, else AWS_REGION, else us-east-1)",
      parseRegion,
    )
    .option('--access-key-id <id>', 'access key (with --secret-access-key)')
    .option('--secret-access-key <secret>', 'secret key')
    .option('-c, --config <file>', 'config file for the server address (default: eddy.config.* here)')
    .option('--no-config', 'ignore eddy.config.* in the working directory');
}

/** A usage mistake: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The stack named by `--config` or `--template`, or found in `cwd`, or none (`--no-config`, or
 * nothing found). Only an eddy config says where its server listens.
 */
export async function optionalConfig(
  options: Pick<
    ServiceCliOptions,
    'config' | 'template' | 'parameterOverrides' | 'cdk' | 'stage' | 'var' | 'varFile'
  >,
  cwd: string,
): Promise<{ config: EddyConfig | undefined; file: string | undefined }> {
  const stack = await loadStack({
    cwd,
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.template === undefined ? {} : { template: options.template }),
    ...(options.parameterOverrides === undefined ? {} : { parameters: options.parameterOverrides }),
    ...(options.cdk === undefined ? {} : { cdk: options.cdk }),
    ...formatOptionsOf(options),
  });
  return { config: stack?.config, file: stack?.origin.file };
}

export function checkCredentialFlags(options: ServiceCliOptions): void {
  if ((options.accessKeyId === undefined) !== (options.secretAccessKey === undefined))
    throw new UsageError('--access-key-id and --secret-access-key go together');
}

/** A call to the endpoint failed; the message says what to do about a local eddy that is not up. */
export class EndpointError extends Error {
  override readonly name = 'EndpointError';
  constructor(error: unknown, endpoint: string | undefined) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | null)?.code;
    super(
      code === 'ECONNREFUSED' && endpoint !== undefined
        ? `nothing answers at ${endpoint} (start it with \`eddy serve\`, or pass --endpoint): ${message}`
        : message,
      { cause: error },
    );
  }
}

export function parseCount(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1) throw new InvalidArgumentError('must be a positive whole number.');
  return count;
}

export function parseDurationOption(value: string): number {
  try {
    const ms = parseDuration(/^\d+$/.test(value) ? Number(value) : value);
    if (!(ms > 0)) throw new Error('not positive');
    return ms;
  } catch {
    throw new InvalidArgumentError('must be a duration such as 500ms, 30s, 5m or 24h (or milliseconds).');
  }
}
