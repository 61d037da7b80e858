import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isObject } from '../cloudformation/shapes.js';
import {
  errorAtProvenance,
  type LoadStackOptions,
  type StackDefinition,
  type StackSource,
  TemplateError,
} from '../stackDefinition.js';
import { evaluateValue } from './expressions.js';
import { type ModuleSettings, TerraformModule } from './module.js';
import { findTerraform, terraformDirectory } from './paths.js';
import { readTerraformStack } from './resources.js';

/**
 * Terraform configurations (`*.tf` in a folder; docs/terraform.md): the root module and the local
 * modules it calls, parsed with `@cdktf/hcl2json`, evaluated with the variable values Terraform
 * would give them, and their DynamoDB tables, Lambda functions, event source mappings and
 * schedules read into the stack model. Terraform itself is not needed.
 */
export const terraformSource: StackSource = {
  format: 'terraform',
  find: findTerraform,
  load: (path, options) => loadTerraform(path, options),
};

type Parse = (file: string, text: string) => Promise<Record<string, unknown>>;

export async function loadTerraform(path: string, options: LoadStackOptions): Promise<StackDefinition> {
  const directory = terraformDirectory(resolve(options.cwd, path));
  if (!existsSync(directory)) throw new TemplateError(directory, '', 'no such folder');
  const { parse } = (await import('@cdktf/hcl2json')) as { parse: Parse };
  const settings: { -readonly [K in keyof ModuleSettings]: ModuleSettings[K] } = {
    region: options.region ?? 'us-east-1',
    accountId: options.accountId ?? '000000000000',
    root: directory,
    cwd: options.cwd,
  };
  const root = await TerraformModule.read(directory, settings, parse);
  const { values, files } = await variableValues(root, directory, options, parse);
  root.setInputs(values, directory);
  // The aws provider's region is the local stack's, unless --region says otherwise.
  const providerRegion = options.region === undefined ? root.providerRegion() : undefined;
  if (providerRegion !== undefined) settings.region = providerRegion;
  const stack = readTerraformStack(root, options.workDirectory ?? join(directory, '.eddy'));
  return {
    config: {
      tables: stack.tables,
      functions: stack.functions,
      ...(providerRegion === undefined ? {} : { server: { region: providerRegion } }),
    },
    origin: {
      format: 'terraform',
      file: directory,
      kind: 'Terraform configuration',
      discovered: options.discovered === true,
    },
    baseDirectory: directory,
    notices: stack.notices,
    watchFiles: [...root.allModules().flatMap((module) => module.files), ...files],
    errorAt: errorAtProvenance(stack.provenance, (place, reason, errorOptions) =>
      place === undefined
        ? new TemplateError(directory, '', reason, errorOptions)
        : new TemplateError(
            place.block.file,
            place.module.locate(place.block, place.path),
            reason,
            errorOptions,
          ),
    ),
  };
}

/**
 * The root module's variable values, in Terraform's order of precedence (later wins): `TF_VAR_*`
 * environment variables, terraform.tfvars, terraform.tfvars.json, `*.auto.tfvars(.json)` in name
 * order, `--var-file` files, `--var` values.
 * https://developer.hashicorp.com/terraform/language/values/variables#variable-definition-precedence
 */
async function variableValues(
  root: TerraformModule,
  directory: string,
  options: LoadStackOptions,
  parse: Parse,
): Promise<{ values: Map<string, { value: unknown; fromText: boolean }>; files: string[] }> {
  const values = new Map<string, { value: unknown; fromText: boolean }>();
  for (const name of root.variables.keys()) {
    const text = process.env[`TF_VAR_${name}`];
    if (text !== undefined) values.set(name, { value: text, fromText: true });
  }
  const automatic = readdirSync(directory)
    .filter((name) => /\.auto\.tfvars(\.json)?$/.test(name))
    .sort();
  const files = [
    ...['terraform.tfvars', 'terraform.tfvars.json', ...automatic]
      .map((name) => join(directory, name))
      .filter((file) => existsSync(file)),
    ...(options.varFiles ?? []).map((file) => resolve(options.cwd, file)),
  ];
  for (const file of files) {
    if (!existsSync(file)) throw new TemplateError(file, '', 'the variable file does not exist');
    const text = readFileSync(file, 'utf8');
    let parsed: unknown;
    try {
      parsed = file.endsWith('.json') ? JSON.parse(text) : await parse(file, text);
    } catch (error) {
      throw new TemplateError(
        file,
        '',
        `not valid ${file.endsWith('.json') ? 'JSON' : 'HCL'}: ${String((error as Error).message ?? error).trim()}`,
        { cause: error },
      );
    }
    if (!isObject(parsed)) throw new TemplateError(file, '', 'a variable file holds name = value lines');
    for (const [name, raw] of Object.entries(parsed)) {
      let value: unknown;
      try {
        value = evaluateValue(raw, {
          directory,
          reference: () => {
            throw new Error('a variable file holds values, not references');
          },
        });
      } catch (error) {
        throw new TemplateError(file, ` (${name})`, (error as Error).message, { cause: error });
      }
      if (!root.variables.has(name))
        throw new TemplateError(file, ` (${name})`, `a value for undeclared variable '${name}'`);
      values.set(name, { value, fromText: false });
    }
  }
  for (const [name, text] of Object.entries(options.variables ?? {}))
    values.set(name, { value: text, fromText: true });
  return { values, files };
}
