import { InvalidArgumentError } from 'commander';
import { parseParameterOverrides } from '../../stack/sources/index.js';

/**
 * The options that choose a stack other than eddy.config.* (docs/templates.md), shared by `eddy
 * serve`, `build`, `synth`, `invoke` and `record`: `--template <path>`, `--parameter-overrides
 * Key=Value ...` and `--cdk`.
 */
export const TEMPLATE_OPTION = [
  '--template <path>',
  'a SAM/CloudFormation template (yaml or json), a CDK cloud assembly or app folder (default: template.yaml|yml|json or cdk.out/ in the working directory when there is no eddy.config.*)',
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
