import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { unzipSync } from 'fflate';
import type { FunctionBuildConfig } from '../../../config.js';

/**
 * Where a template function's code is, and which module and export its `Handler` names.
 *
 * Lambda's Node.js runtime reads `Handler` as `<path/module>.<export>`: the module is everything
 * up to the first dot after the last slash, tried as `.js`, `.mjs` and `.cjs` in the code's folder
 * (https://docs.aws.amazon.com/lambda/latest/dg/nodejs-handler.html). eddy also takes a `.ts`,
 * `.mts` or `.cts` module of that name, run through tsx, for code that is built before deploying.
 *
 * With SAM's `Metadata.BuildMethod: esbuild`, the module is the entry point of that name
 * (`EntryPoints`, relative to CodeUri, as `sam build` names each output after its entry point),
 * bundled with the `BuildProperties` before it runs.
 * https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/serverless-sam-cli-using-build-typescript.html
 */
export type CodeSource =
  | { readonly kind: 'directory'; readonly directory: string }
  | { readonly kind: 'zip'; readonly file: string }
  | { readonly kind: 'inline'; readonly code: string }
  | { readonly kind: 'unavailable'; readonly reason: string };

export interface HandlerModule {
  /** Absolute path of the module to run. */
  readonly module: string;
  readonly exportName: string;
  readonly build?: FunctionBuildConfig;
}

/** Why a function's code cannot be found: the message, and the property to blame. */
export class HandlerCodeError extends Error {
  override readonly name = 'HandlerCodeError';
  constructor(
    message: string,
    /** `Handler`, `CodeUri`, `Code`, or `Metadata` (the build's). */
    readonly property: string,
  ) {
    super(message);
  }
}

export interface BuildMetadata {
  readonly method?: string;
  readonly properties?: Readonly<Record<string, unknown>>;
}

const JS_EXTENSIONS = ['.js', '.mjs', '.cjs'];
const TS_EXTENSIONS = ['.ts', '.mts', '.cts'];

/** `src/app.handler` → module `src/app`, export `handler`; `index.handlers.audit` → `index`, `handlers.audit`. */
export function splitHandler(handler: string): { module: string; exportName: string } {
  const slash = handler.lastIndexOf('/');
  const match = /^([^.]*)\.(.+)$/.exec(handler.slice(slash + 1));
  if (match === null)
    throw new HandlerCodeError(`'${handler}' is not <module>.<export> (e.g. index.handler)`, 'Handler');
  return { module: handler.slice(0, slash + 1) + match[1], exportName: match[2]! };
}

/**
 * The module a function runs. Inline code and zips are written out under `workDirectory` (inline
 * code as Lambda writes it, `index.js`; a zip unpacked as Lambda unpacks it).
 * @throws HandlerCodeError when the code or the module is not there.
 */
export function handlerModule(
  source: CodeSource,
  handler: string,
  options: { readonly functionName: string; readonly workDirectory: string; readonly build?: BuildMetadata },
): HandlerModule {
  const { module, exportName } = splitHandler(handler);
  const directory = codeDirectory(source, module, options);
  const method = options.build?.method;
  if (method === 'esbuild')
    return esbuildEntry(directory, module, exportName, options.build?.properties ?? {});
  const found = findModule(join(directory, module));
  if (found === undefined)
    throw new HandlerCodeError(
      `no module ${module} (.js, .mjs, .cjs, or .ts) in ${directory} for Handler '${handler}'`,
      'Handler',
    );
  return { module: found, exportName };
}

function codeDirectory(
  source: CodeSource,
  module: string,
  options: { readonly functionName: string; readonly workDirectory: string },
): string {
  switch (source.kind) {
    case 'directory':
      if (!existsSync(source.directory))
        throw new HandlerCodeError(`the code folder ${source.directory} does not exist`, 'CodeUri');
      if (!statSync(source.directory).isDirectory()) {
        if (extname(source.directory) === '.zip') return unpack(source.directory, options);
        // A CodeUri may name the handler's file itself.
        return dirname(source.directory);
      }
      return source.directory;
    case 'zip':
      return unpack(source.file, options);
    case 'inline': {
      const directory = codeFolder(options);
      // Lambda saves inline code as index.js; code written as an ES module runs as one (Node's
      // syntax detection, as the nodejs22.x runtime does), else as CommonJS.
      const esm = /^\s*(import\s|export\s)/m.test(source.code);
      const file = join(directory, `${basename(module)}${esm ? '.mjs' : '.js'}`);
      writeFileSync(file, source.code);
      // Not the project's package.json: its "type" must not decide what the inline code is.
      writeFileSync(join(directory, 'package.json'), '{ "type": "commonjs" }\n');
      return directory;
    }
    case 'unavailable':
      throw new HandlerCodeError(source.reason, 'Code');
  }
}

function codeFolder(options: { readonly functionName: string; readonly workDirectory: string }): string {
  const directory = join(options.workDirectory, 'code', options.functionName);
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  return directory;
}

/** A deployment package unpacked (entries that would land outside the folder are refused). */
function unpack(
  file: string,
  options: { readonly functionName: string; readonly workDirectory: string },
): string {
  if (!existsSync(file)) throw new HandlerCodeError(`the code package ${file} does not exist`, 'CodeUri');
  const directory = codeFolder(options);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(readFileSync(file));
  } catch (error) {
    throw new HandlerCodeError(
      `the code package ${file} is not a zip: ${(error as Error).message}`,
      'CodeUri',
    );
  }
  for (const [name, data] of Object.entries(entries)) {
    const target = resolve(directory, name);
    if (target !== directory && !target.startsWith(directory + sep))
      throw new HandlerCodeError(`the code package ${file} holds a path outside itself: ${name}`, 'CodeUri');
    if (name.endsWith('/')) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
  }
  return directory;
}

function findModule(base: string): string | undefined {
  if (existsSync(base) && statSync(base).isFile()) return base;
  for (const extension of [...JS_EXTENSIONS, ...TS_EXTENSIONS]) {
    if (existsSync(base + extension)) return base + extension;
  }
  return undefined;
}

/**
 * SAM's esbuild build: each entry point becomes `<name>.js` at the top of the package (several
 * keep their paths below their common folder), and `Handler` names one of those.
 */
function esbuildEntry(
  directory: string,
  module: string,
  exportName: string,
  properties: Readonly<Record<string, unknown>>,
): HandlerModule {
  const build = buildSettingsOf(properties);
  const entryPoints = listOf(properties.EntryPoints).map((entry) => resolve(directory, entry));
  if (entryPoints.length === 0) {
    const found = findModule(join(directory, module));
    if (found === undefined)
      throw new HandlerCodeError(
        `BuildMethod esbuild: no EntryPoints in BuildProperties and no module ${module} in ${directory}`,
        'Metadata',
      );
    return { module: found, exportName, build };
  }
  const base = entryPoints.length === 1 ? dirname(entryPoints[0]!) : commonFolder(entryPoints);
  const outputs = entryPoints.map((entry) => ({
    entry,
    name: withoutExtension(relative(base, entry)).split(sep).join('/'),
  }));
  const match = outputs.find((output) => output.name === module.replace(/^\.\//, ''));
  if (match === undefined)
    throw new HandlerCodeError(
      `Handler names module ${module}, but the esbuild EntryPoints build ${outputs.map((output) => output.name).join(', ')}`,
      'Handler',
    );
  if (!existsSync(match.entry))
    throw new HandlerCodeError(`the esbuild entry point ${match.entry} does not exist`, 'Metadata');
  return { module: match.entry, exportName, build };
}

/** BuildProperties of SAM's esbuild build as eddy's build settings. */
export function buildSettingsOf(properties: Readonly<Record<string, unknown>>): FunctionBuildConfig {
  const format = properties.Format === undefined ? undefined : String(properties.Format).toLowerCase();
  const loader = listOf(properties.Loader).map((item) => item.split('='));
  const banner = listOf(properties.Banner).find((item) => item.startsWith('js='));
  const define = listOf(properties.Define).map((item) => item.split('='));
  const settings: FunctionBuildConfig = {
    ...(format === 'esm' || format === 'cjs' ? { format } : {}),
    ...(properties.Target === undefined ? {} : { target: String(properties.Target) }),
    ...(properties.External === undefined ? {} : { external: listOf(properties.External) }),
    ...(properties.Sourcemap === undefined ? {} : { sourcemap: isTrue(properties.Sourcemap) }),
    ...(properties.Minify === undefined ? {} : { minify: isTrue(properties.Minify) }),
    ...(loader.length === 0
      ? {}
      : { loader: Object.fromEntries(loader.map(([ext, kind]) => [ext!, kind ?? ''])) }),
    ...(define.length === 0
      ? {}
      : { define: Object.fromEntries(define.map(([key, value]) => [key!, value ?? ''])) }),
    ...(banner === undefined ? {} : { banner: banner.slice(3) }),
    ...(properties.MainFields === undefined ? {} : { mainFields: listOf(properties.MainFields) }),
  };
  return settings;
}

/** A list property: a YAML list, or SAM's comma-separated string. */
function listOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map(String);
  return String(value)
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function isTrue(value: unknown): boolean {
  return value === true || String(value).toLowerCase() === 'true';
}

function withoutExtension(path: string): string {
  const extension = extname(path);
  return extension === '' ? path : path.slice(0, -extension.length);
}

function commonFolder(paths: readonly string[]): string {
  let common = dirname(paths[0]!);
  while (!paths.every((path) => path.startsWith(common + sep))) {
    const parent = dirname(common);
    if (parent === common) break;
    common = parent;
  }
  return common;
}

/** A CodeUri or Code path, from the template's folder. */
export function codePath(templateDirectory: string, path: string): string {
  return isAbsolute(path) ? path : resolve(templateDirectory, path);
}
