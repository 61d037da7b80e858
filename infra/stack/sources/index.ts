import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { findCdk, isCdkPath } from './cdk/paths.js';
import { findTemplateFile } from './cloudformation/templateFiles.js';
import { eddyConfigSource, isEddyConfigFile } from './eddy-config/index.js';
import {
  type LoadStackOptions,
  type StackDefinition,
  type StackSource,
  TemplateError,
} from './stackDefinition.js';

/**
 * Where a stack comes from (docs/templates.md §2): `--config` (an eddy config), `--template` (a file or
 * folder of any format), or, with neither, the first of these found in the working folder:
 * eddy.config.*, a SAM/CloudFormation template (template.yaml|yml|json), a CDK app (cdk.out/, or
 * cdk.json with `--cdk`). docs/templates.md says the same for users.
 *
 * A new format adds its source to `TEMPLATE_SOURCES` (discovery order) and to `sourceOfPath` (how
 * a `--template` path is recognised).
 */
/**
 * The loaders are imported when a stack of their format is loaded: finding one costs a few
 * `existsSync` calls, and `eddy serve` with an eddy config (or none) pays nothing for YAML and CDK.
 */
const cloudFormationSource: StackSource = {
  format: 'cloudformation',
  find: findTemplateFile,
  load: async (path, options) => (await import('./cloudformation/index.js')).loadTemplate(path, options),
};
const cdkSource: StackSource = {
  format: 'cdk',
  find: findCdk,
  load: async (path, options) => (await import('./cdk/index.js')).cdkSource.load(path, options),
};

export const TEMPLATE_SOURCES: readonly StackSource[] = [cloudFormationSource, cdkSource];

export interface StackRequest extends LoadStackOptions {
  /** `--config <file>`; `false` is `--no-config` (no stack file at all: the demo). */
  readonly config?: string | false;
  /** `--template <file or folder>`. */
  readonly template?: string;
}

/**
 * The stack a command runs, or undefined when there is none (`--no-config`, or nothing found).
 * @throws ConfigError (TemplateError for templates) naming the file, the place in it and why.
 */
export async function loadStack(request: StackRequest): Promise<StackDefinition | undefined> {
  const { cwd } = request;
  if (request.template !== undefined) {
    if (request.config !== undefined && request.config !== false)
      throw new TemplateError(
        resolve(cwd, request.template),
        '',
        '--config and --template name two stacks: give one',
      );
    const path = resolve(cwd, request.template);
    return sourceOfPath(path, request).load(path, request);
  }
  if (request.config === false) return undefined;
  if (request.config !== undefined) return eddyConfigSource.load(request.config, request);
  const config = eddyConfigSource.find(cwd);
  if (config !== undefined) return eddyConfigSource.load(config, { ...request, discovered: true });
  // --cdk asks for the CDK app of the folder even where a template sits beside it.
  const sources = request.cdk === true ? [cdkSource, ...TEMPLATE_SOURCES] : TEMPLATE_SOURCES;
  for (const source of sources) {
    const found = source.find(cwd);
    if (found !== undefined) return source.load(found, { ...request, discovered: true });
  }
  return undefined;
}

/** The source of a `--template` path: a folder is searched as the working folder is. */
function sourceOfPath(path: string, request: StackRequest): StackSource {
  if (!existsSync(path)) throw new TemplateError(path, '', 'no such file or folder');
  if (statSync(path).isDirectory()) {
    if (request.cdk === true && isCdkPath(path)) return withPath(cdkSource, path);
    for (const source of TEMPLATE_SOURCES) {
      const found = source.find(path);
      if (found !== undefined) return withPath(source, found);
    }
    throw new TemplateError(
      path,
      '',
      'no template.yaml, template.yml, template.json or cdk.out/ in this folder',
    );
  }
  if (isEddyConfigFile(path)) return eddyConfigSource;
  if (isCdkPath(path)) return cdkSource;
  return cloudFormationSource;
}

/** A source whose load reads `path` (what `find` found) instead of the folder given. */
function withPath(source: StackSource, path: string): StackSource {
  return { ...source, load: (_ignored, options) => source.load(path, options) };
}

/** How the banner names where a stack came from: `template.yaml (SAM template, found in the working folder)`. */
export function describeOrigin(stack: StackDefinition, relativeTo: (path: string) => string): string {
  const { origin } = stack;
  return `${relativeTo(origin.file)} (${origin.kind}${origin.discovered ? ', found in the working folder' : ''})`;
}

export { parseParameterOverrides } from './cloudformation/parameters.js';
export type {
  LoadStackOptions,
  StackDefinition,
  StackFormat,
  StackOrigin,
  StackSource,
} from './stackDefinition.js';
export { TemplateError } from './stackDefinition.js';
