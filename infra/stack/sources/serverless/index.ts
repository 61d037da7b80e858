import { existsSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pseudoParametersOf } from '../cloudformation/pseudoParameters.js';
import { isObject } from '../cloudformation/shapes.js';
import { readTemplateFile, type TemplateFile, type TemplatePath } from '../cloudformation/templateFile.js';
import { readTemplateStack } from '../cloudformation/templateStack.js';
import {
  errorAtProvenance,
  type LoadStackOptions,
  type StackDefinition,
  type StackSource,
  TemplateError,
} from '../stackDefinition.js';
import { findServerlessFile } from './paths.js';
import { compileService, type ResourcePlace } from './service.js';
import { ServerlessVariables } from './variables.js';

/**
 * Serverless Framework services, v3 and v4 (`serverless.yml|yaml|json`; docs/serverless.md): the
 * variables are resolved, the service is compiled to the CloudFormation template the Framework
 * would deploy (`service.ts`), and that template is read by the CloudFormation loader with the
 * service's `resources` in it. Errors point into serverless.yml, at the key the value came from.
 */
export const serverlessSource: StackSource = {
  format: 'serverless',
  find: findServerlessFile,
  load: async (path, options) => loadServerless(path, options),
};

/**
 * A service file: YAML or JSON as a template file; `serverless.js` / `serverless.ts` as a module
 * whose export (`module.exports`, `export default`, or `export =` in TypeScript) is the service,
 * as the Framework takes it. A module's values have no place in a text: messages name the key.
 */
async function readServiceFile(file: string): Promise<TemplateFile> {
  const extension = extname(file);
  if (!['.js', '.ts', '.mjs', '.cjs', '.mts', '.cts'].includes(extension)) return readTemplateFile(file);
  let module: Record<string, unknown>;
  try {
    module = extension.endsWith('ts')
      ? await (await import('tsx/esm/api')).tsImport(pathToFileURL(file).href, import.meta.url)
      : await import(pathToFileURL(file).href);
  } catch (error) {
    throw new TemplateError(file, '', `cannot be loaded: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown = module.default ?? module;
  // A CommonJS module (or a .ts file compiled as one) arrives wrapped once more.
  if (isObject(value) && isObject(value.default) && !('service' in value)) value = value.default;
  return {
    file,
    format: 'json',
    template: value,
    locate: (at) => (at.length === 0 ? '' : ` (${at.join('.')})`),
  };
}

export async function loadServerless(path: string, options: LoadStackOptions): Promise<StackDefinition> {
  const file = resolve(options.cwd, path);
  if (!existsSync(file)) throw new TemplateError(file, '', 'file not found');
  const parsed = await readServiceFile(file);
  const directory = dirname(file);
  const fail = (at: TemplatePath, reason: string): never => {
    throw new TemplateError(file, parsed.locate(at), reason);
  };
  if (!isObject(parsed.template))
    return fail([], 'serverless.yml is a map (service, provider, functions...)');
  const notices: string[] = [];
  const variables = new ServerlessVariables(parsed.template, {
    directory,
    ...(options.stage === undefined ? {} : { stage: options.stage }),
    ...(options.region === undefined ? {} : { region: options.region }),
    accountId: options.accountId ?? '000000000000',
    env: process.env,
    fail,
    notice: (line) => notices.push(line),
  });
  const service = variables.resolveAll() as Record<string, unknown>;
  const stage = variables.stage();
  const region = variables.region();
  const serviceName = isObject(service.service) ? service.service.name : service.service;
  if (typeof serviceName !== 'string' || serviceName === '')
    return fail(['service'], 'service (the service name) is required');
  const provider = isObject(service.provider) ? service.provider : {};
  const stackName =
    options.stackName ??
    (typeof provider.stackName === 'string' ? provider.stackName : `${serviceName}-${stage}`);

  const compiled = compileService(service, { fail });
  const translate = (at: TemplatePath): TemplatePath => serverlessPath(at, compiled.places);
  const stack = readTemplateStack(compiled.template, {
    pseudo: pseudoParametersOf(region, options.accountId ?? '000000000000', stackName),
    parameters: options.parameters ?? {},
    fail: (at, reason) => fail(translate(at), reason),
    templateDirectory: directory,
    workDirectory: options.workDirectory ?? join(directory, '.eddy'),
    // A function's code is the service's folder (the Framework packages the folder).
    codeOf: (logicalId) =>
      compiled.places.has(logicalId) && logicalId.endsWith('LambdaFunction')
        ? { kind: 'directory', directory }
        : undefined,
    ignored: compiled.ignored,
  });
  const regionGiven = options.region === undefined && provider.region !== undefined;
  return {
    config: { ...stack.config, ...(regionGiven ? { server: { region } } : {}) },
    origin: {
      format: 'serverless',
      file,
      kind: `Serverless Framework service, stage ${stage}`,
      discovered: options.discovered === true,
    },
    baseDirectory: directory,
    notices: [...compiled.notices, ...notices, ...stack.notices],
    watchFiles: [file, ...variables.files],
    errorAt: errorAtProvenance(stack.provenance, (place, reason, errorOptions) =>
      locatedError(parsed, translate(place ?? []), reason, errorOptions),
    ),
  };
}

/**
 * Where a path of the compiled template was written in serverless.yml: a generated resource's
 * property at the key it came from (`functions.onOrder.events[0].stream.batchSize`), a resource of
 * `resources.Resources` where it is.
 */
function serverlessPath(at: TemplatePath, places: ReadonlyMap<string, ResourcePlace>): TemplatePath {
  if (at[0] !== 'Resources' || typeof at[1] !== 'string') return at.length === 0 ? at : ['resources', ...at];
  const place = places.get(at[1]);
  if (place === undefined) return ['resources', ...at];
  if (at[2] !== 'Properties' || typeof at[3] !== 'string') return place.path;
  const property = place.properties[at[3]];
  return property === undefined ? place.path : [...property, ...at.slice(4)];
}

function locatedError(
  parsed: TemplateFile,
  at: TemplatePath,
  reason: string,
  options?: { cause?: unknown },
): TemplateError {
  return new TemplateError(parsed.file, parsed.locate(at), reason, options);
}
