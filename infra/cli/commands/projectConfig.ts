import { relative } from 'node:path';
import type { Command } from 'commander';
import type { EddyConfig } from '../../config.js';
import { describeOrigin, loadStack, type StackDefinition } from '../../stack/sources/index.js';
import { CONFIG_FILE_NAMES } from '../loadConfig.js';
import { CDK_OPTION, PARAMETERS_OPTION, TEMPLATE_OPTION } from './stackOptions.js';

/** `eddy build`, `synth` and `invoke` need a stack: the one given, or one found here. */
export class NoConfigError extends Error {
  override readonly name = 'NoConfigError';
  constructor(readonly directory: string) {
    super(
      `no config: pass --config <file> or --template <file or folder>, or run where one of ${CONFIG_FILE_NAMES.join(', ')}, template.yaml|yml|json or cdk.out/ is (${directory})`,
    );
  }
}

export interface ProjectConfig {
  /** The file (or cloud assembly folder) the stack was read from. */
  readonly file: string;
  readonly config: EddyConfig;
  /** The stack file's folder: where its relative paths start. */
  readonly baseDirectory: string;
  readonly definition: StackDefinition;
}

/** The stack options a command takes (`--config`, `--template`, `--parameter-overrides`, `--cdk`). */
export interface StackCliOptions {
  readonly config?: string;
  readonly template?: string;
  readonly parameterOverrides?: Readonly<Record<string, string>>;
  readonly cdk?: boolean;
  readonly region?: string;
}

/** Adds `--template`, `--parameter-overrides` and `--cdk` to a command that reads the project's stack. */
export function withTemplateOptions(command: Command): Command {
  return command
    .option(...TEMPLATE_OPTION)
    .option(...PARAMETERS_OPTION)
    .option(...CDK_OPTION);
}

/**
 * Loads the stack of `--config` or `--template` (relative to `cwd`), or the one found in `cwd`;
 * a found template is named on `tell` (stderr), so the user knows which file was taken.
 * @throws NoConfigError when there is none; ConfigError (or TemplateError) when it is bad.
 */
export async function loadProjectConfig(
  cwd: string,
  options: StackCliOptions,
  tell?: (line: string) => void,
): Promise<ProjectConfig> {
  const definition = await loadStack({
    cwd,
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.template === undefined ? {} : { template: options.template }),
    ...(options.parameterOverrides === undefined ? {} : { parameters: options.parameterOverrides }),
    ...(options.cdk === undefined ? {} : { cdk: options.cdk }),
    ...(options.region === undefined ? {} : { region: options.region }),
  });
  if (definition === undefined) throw new NoConfigError(cwd);
  if (definition.origin.discovered && definition.origin.format !== 'eddy-config')
    tell?.(`eddy: using ${describeOrigin(definition, (path) => relative(cwd, path) || '.')}`);
  return {
    file: definition.origin.file,
    config: definition.config,
    baseDirectory: definition.baseDirectory,
    definition,
  };
}
