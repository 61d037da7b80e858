import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  errorAtProvenance,
  type LoadStackOptions,
  type StackDefinition,
  type StackSource,
  TemplateError,
} from '../stackDefinition.js';
import { pseudoParametersOf, stackNameOf } from './pseudoParameters.js';
import { readTemplateFile, type TemplateFile, type TemplatePath } from './templateFile.js';
import { findTemplateFile } from './templateFiles.js';
import { readTemplateStack, type TemplateStackOptions } from './templateStack.js';

/**
 * SAM and CloudFormation templates (`template.yaml`, `template.yml`, `template.json`): the loader
 * of `eddy serve --template template.yaml` and `startStack({ template })` (docs/templates.md).
 */
export const cloudFormationSource: StackSource = {
  format: 'cloudformation',
  find: findTemplateFile,
  load: async (path, options) => loadTemplate(path, options),
};

/**
 * Reads a template into a stack.
 * @throws TemplateError naming the file, where in it (line and column, or JSON pointer) and why.
 */
export function loadTemplate(path: string, options: LoadStackOptions): StackDefinition {
  const file = resolve(options.cwd, path);
  if (!existsSync(file)) throw new TemplateError(file, '', 'file not found');
  const parsed = readTemplateFile(file);
  const templateDirectory = dirname(file);
  const stack = readTemplateStack(parsed.template, templateOptions(parsed, options, templateDirectory));
  return {
    config: stack.config,
    origin: { format: 'cloudformation', file, kind: stack.kind, discovered: options.discovered === true },
    baseDirectory: templateDirectory,
    notices: stack.notices,
    watchFiles: [file],
    errorAt: errorAtProvenance(stack.provenance, (place, reason, errorOptions) =>
      templateError(parsed, place ?? [], reason, errorOptions),
    ),
  };
}

/** The resolver's settings for one parsed template (the CDK loader reads each of its stacks so). */
export function templateOptions(
  parsed: TemplateFile,
  options: LoadStackOptions,
  templateDirectory: string,
  stackName = options.stackName ?? stackNameOf(basename(templateDirectory)),
): Omit<TemplateStackOptions, 'importValue'> {
  return {
    pseudo: pseudoParametersOf(options.region ?? 'us-east-1', options.accountId ?? '000000000000', stackName),
    parameters: options.parameters ?? {},
    fail: (path: TemplatePath, reason: string): never => {
      throw templateError(parsed, path, reason);
    },
    templateDirectory,
    workDirectory: options.workDirectory ?? join(templateDirectory, '.eddy'),
  };
}

export function templateError(
  parsed: TemplateFile,
  path: TemplatePath,
  reason: string,
  options?: { cause?: unknown },
): TemplateError {
  return new TemplateError(parsed.file, parsed.locate(path), reason, options);
}

export { type CfnResource, type CfnTemplate, NO_VALUE, TemplateResolver } from './intrinsics.js';
export { parseParameterOverrides } from './parameters.js';
export { pseudoParametersOf } from './pseudoParameters.js';
export {
  parseJsonTemplate,
  parseYamlTemplate,
  readTemplateFile,
  type TemplateFile,
  type TemplatePath,
} from './templateFile.js';
export { readTemplateStack, type TemplateStack, type TemplateStackOptions } from './templateStack.js';
