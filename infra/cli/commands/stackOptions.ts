import { type Command, InvalidArgumentError } from 'commander';
import { type LoadStackOptions, parseParameterOverrides } from '../../stack/sources/index.js';

/**
 * The options that choose a stack other than eddy.config.* (docs/templates.md), shared by `eddy
 * serve`, `build`, `synth`, `invoke` and `record`: `--template <path>`, `--parameter-overrides
 * Key=Value ...` and `--cdk`.
 */
export const TEMPLATE_OPTION = [
  '--template <path>',
  'a SAM/CloudFormation template (yaml or json), a CDK cloud assembly or app folder, a serverless.yml, a Terraform folder (default: the first of template.yaml|yml|json, cdk.out/, serverless.yml|yaml|json, *.tf in the working directory when there is no eddy.config.*)',
] as const;

export const PARAMETERS_OPTION = [
  '--parameter-overrides <Key=Value...>',
  "template parameter values (also SAM's ParameterKey=Key,ParameterValue=Value)",
  parseParameterOption,
] as const;

export const CDK_OPTION = ['--cdk', "run the CDK app's `cdk synth` first (where cdk.json is)"] as const;

/** One `Key=Value` of `--parameter-overrides`, added to those before it. */
function parseParameterOption(
  pair: string,
  previous: Record<string, string> | undefined,
): Record<string, string> {
  try {
    return { ...previous, ...parseParameterOverrides([pair]) };
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

export const STAGE_OPTION = [
  '--stage <name>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the Serverless Framework's variable, shown as written
  "Serverless Framework stage, ${opt:stage} (default: the service's provider.stage, else dev)",
] as const;

export const VAR_OPTION = [
  '--var <name=value>',
  'Terraform input variable, as terraform -var (repeat for more)',
  parseVariableOption,
] as const;

export const VAR_FILE_OPTION = [
  '--var-file <file>',
  'Terraform variable file (.tfvars or .tfvars.json), as terraform -var-file (repeat for more)',
  (file: string, previous: readonly string[] | undefined) => [...(previous ?? []), file],
] as const;

/** What `--stage`, `--var` and `--var-file` gave, as commander parsed them. */
export interface FormatCliOptions {
  readonly stage?: string;
  readonly var?: Readonly<Record<string, string>>;
  readonly varFile?: readonly string[];
}

/** The options of the Serverless and Terraform loaders, from the command line. */
export function formatOptionsOf(
  options: FormatCliOptions,
): Pick<LoadStackOptions, 'stage' | 'variables' | 'varFiles'> {
  return {
    ...(options.stage === undefined ? {} : { stage: options.stage }),
    ...(options.var === undefined ? {} : { variables: options.var }),
    ...(options.varFile === undefined ? {} : { varFiles: options.varFile }),
  };
}

/** Adds the stack-choosing options to a command. */
export function withStackOptions(command: Command): Command {
  return command
    .option(...TEMPLATE_OPTION)
    .option(...PARAMETERS_OPTION)
    .option(...CDK_OPTION)
    .option(...STAGE_OPTION)
    .option(...VAR_OPTION)
    .option(...VAR_FILE_OPTION);
}

/** One `name=value` of `--var` (the value may hold `=`), added to those before it. */
function parseVariableOption(
  pair: string,
  previous: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const equals = pair.indexOf('=');
  if (equals <= 0) throw new InvalidArgumentError(`'${pair}' is not name=value`);
  const result: Record<string, string> = { ...previous };
  Object.defineProperty(result, pair.slice(0, equals), {
    value: pair.slice(equals + 1),
    enumerable: true,
    writable: true,
  });
  return result;
}
