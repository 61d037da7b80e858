import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildFailure, Loader, Metafile } from 'esbuild';
import { bindingsOf, runsLocally } from '../bindings.js';
import type { EddyConfig, FunctionBuildConfig } from '../config.js';
import { eddyPackageRoot } from '../package/packageInfo.js';
import { artefactsOf } from './artefacts.js';
import { BuildError } from './errors.js';
import { writeLambdaZip } from './zip.js';

/**
 * Bundles Lambda-shaped functions with esbuild into deployable artefacts (see `artefacts.ts`):
 * one ESM file per function, exporting the handler as `handler` so Lambda's handler setting is
 * always `index.handler`, and a zip of it. Bundles are built for Node 20, the oldest Node eddy
 * supports, so they run locally on it and on every Lambda Node.js runtime from nodejs20.x on.
 *
 * Everything is bundled, the AWS SDK included: the runtime's own SDK changes with runtime
 * updates, and a bundled one keeps the version the function was tested with
 * (https://docs.aws.amazon.com/lambda/latest/dg/lambda-nodejs.html, "SDK for JavaScript").
 *
 * @example
 * ```ts
 * const entries = projectEntries(config, dirname(configFile));
 * const built = await bundleFunctions(entries, { outDir: 'dist' });
 * // built[0].artefacts.zip === 'dist/functions/tally.zip'
 * ```
 */

/** A function to bundle: which module, which of its exports is the handler. */
export interface FunctionEntry {
  readonly name: string;
  /** Absolute path of the handler module (TypeScript or JavaScript). */
  readonly module: string;
  readonly exportName: string;
  /** `built-in`: one of eddy's functions; `project`: declared in the project's config. */
  readonly origin: 'built-in' | 'project';
  /** The function's build settings (SAM's BuildProperties): externals, loaders, minify... */
  readonly build?: FunctionBuildConfig;
}

export interface BuiltFunction {
  readonly entry: FunctionEntry;
  readonly artefacts: ReturnType<typeof artefactsOf>;
  /** Bytes of index.mjs. */
  readonly bundleBytes: number;
  readonly zipBytes: number;
}

export interface BundleOptions {
  /** The build directory; artefacts go to `<outDir>/functions/`. */
  readonly outDir: string;
  readonly minify?: boolean;
}

/**
 * eddy's own folder: the repository in a checkout, `node_modules/eddy` when installed (found from
 * its package.json, as this file is compiled into a chunk of dist/ there).
 */
const EDDY_ROOT = eddyPackageRoot() ?? fileURLToPath(new URL('../../', import.meta.url));

/**
 * Built-ins whose handler needs ports that only a host provides (`providePorts`), deployed from an
 * entry that builds those ports itself. The archiver's `handler.ts` alone would fail its first
 * invocation with "no sink port"; its Lambda entry builds an S3 sink from its environment.
 */
const LAMBDA_ENTRIES: Readonly<Record<string, string>> = {
  archiver: 'infra/archive/lambdaHandler.ts',
};
/** The same entries in the installed package, which ships no sources (bin/bundleOptions.mjs). */
const COMPILED_LAMBDA_ENTRIES: Readonly<Record<string, string>> = {
  archiver: 'dist/archiver-lambda.js',
};

/** The deployable entry of the built-in archiver (`eddy synth` deploys it when `archive` is set). */
export function archiverEntry(eddyRoot = EDDY_ROOT): FunctionEntry {
  return {
    name: 'archiver',
    module: [LAMBDA_ENTRIES.archiver!, COMPILED_LAMBDA_ENTRIES.archiver!]
      .map((path) => join(eddyRoot, path))
      .reduce((source, compiled) => (existsSync(source) || !existsSync(compiled) ? source : compiled)),
    exportName: 'handler',
    origin: 'built-in',
  };
}

/** eddy's built-in functions: every `functions/<name>/handler.ts`, sorted by name. */
export function builtInEntries(eddyRoot = EDDY_ROOT): FunctionEntry[] {
  const functionsDir = join(eddyRoot, 'functions');
  if (!existsSync(functionsDir)) return [];
  return readdirSync(functionsDir)
    .filter((name) => statSync(join(functionsDir, name)).isDirectory())
    .filter((name) => existsSync(join(functionsDir, name, 'handler.ts')))
    .sort()
    .map((name) => ({
      name,
      module: join(eddyRoot, LAMBDA_ENTRIES[name] ?? join('functions', name, 'handler.ts')),
      exportName: 'handler',
      origin: 'built-in' as const,
    }));
}

/**
 * The functions a project's template deploys: each function of the config, and the archiver when
 * `archive` names tables (as `eddy synth` deploys it). Relative handler paths start from `baseDirectory` (the config's folder).
 */
export function projectEntries(
  config: EddyConfig,
  baseDirectory: string,
  eddyRoot = EDDY_ROOT,
): FunctionEntry[] {
  // Functions in other runtimes are not eddy's to build (docs/templates.md §3.5).
  const entries: FunctionEntry[] = bindingsOf(config, baseDirectory)
    .filter(runsLocally)
    .map((binding) => ({
      name: binding.functionName,
      module: binding.handlerPath,
      exportName: binding.exportName,
      origin: 'project' as const,
      ...(binding.build === undefined ? {} : { build: binding.build }),
    }));
  if ((config.archive?.tables.length ?? 0) > 0) entries.push(archiverEntry(eddyRoot));
  return entries;
}

/**
 * Joins entry lists, keeping one of each name. Two different modules under one name would
 * overwrite each other's artefacts.
 * @throws BuildError when a name is used twice for different modules.
 */
export function mergeEntries(...lists: readonly (readonly FunctionEntry[])[]): FunctionEntry[] {
  const byName = new Map<string, FunctionEntry>();
  for (const entry of lists.flat()) {
    const known = byName.get(entry.name);
    if (known === undefined) byName.set(entry.name, entry);
    else if (known.module !== entry.module || known.exportName !== entry.exportName) {
      throw new BuildError(
        entry.name,
        `the name is taken by ${known.origin === 'built-in' ? "eddy's built-in" : 'another'} function ${known.module}; rename the function`,
      );
    }
  }
  return [...byName.values()];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Bundles and zips each entry (in parallel: esbuild is fast and the zips are small). */
export async function bundleFunctions(
  entries: readonly FunctionEntry[],
  options: BundleOptions,
): Promise<BuiltFunction[]> {
  const esbuild = await import('esbuild');
  return Promise.all(
    mergeEntries(entries).map(async (entry) => {
      if (!IDENTIFIER.test(entry.exportName) && entry.exportName !== 'default') {
        throw new BuildError(entry.name, `exportName '${entry.exportName}' is not a JavaScript export name`);
      }
      if (!existsSync(entry.module))
        throw new BuildError(entry.name, `handler module ${entry.module} not found`);
      const artefacts = artefactsOf(options.outDir, entry.name);
      mkdirSync(artefacts.directory, { recursive: true });
      let metafile: Metafile;
      try {
        const result = await esbuild.build({
          // A virtual entry re-exporting the configured export as `handler`: Lambda's handler
          // setting names a file and an export (`index.handler`), whatever the module calls it.
          stdin: {
            contents: `export { ${entry.exportName} as handler } from ${JSON.stringify(entry.module)};\n`,
            resolveDir: dirname(entry.module),
            sourcefile: `${entry.name}.entry.mjs`,
            loader: 'js',
          },
          outfile: artefacts.bundle,
          // Paths in the bundle's comments and map are relative to this: the module's own folder
          // makes the same sources give the same bytes from any working directory or checkout.
          absWorkingDir: dirname(entry.module),
          bundle: true,
          platform: 'node',
          target: 'node20',
          format: 'esm',
          sourcemap: true,
          metafile: true,
          minify: options.minify ?? entry.build?.minify ?? false,
          logLevel: 'silent',
          // The function's own settings; the format stays ESM (index.mjs) and the target node20.
          ...(entry.build?.external === undefined ? {} : { external: [...entry.build.external] }),
          ...(entry.build?.loader === undefined
            ? {}
            : { loader: entry.build.loader as Record<string, Loader> }),
          ...(entry.build?.define === undefined ? {} : { define: { ...entry.build.define } }),
          ...(entry.build?.mainFields === undefined ? {} : { mainFields: [...entry.build.mainFields] }),
          // Bundled CommonJS dependencies may call require() for Node built-ins; ESM has none.
          banner: {
            js: "import { createRequire as __eddyCreateRequire } from 'node:module';\nconst require = __eddyCreateRequire(import.meta.url);",
          },
        });
        metafile = result.metafile;
      } catch (error) {
        const messages = (error as Partial<BuildFailure>).errors?.map((message) => {
          const where = message.location
            ? `${message.location.file}:${message.location.line}:${message.location.column}: `
            : '';
          return `${where}${message.text}`;
        });
        throw new BuildError(
          entry.name,
          `bundling ${entry.module} failed: ${messages?.join('; ') ?? String(error)}`,
          { cause: error },
        );
      }
      writeFileSync(artefacts.meta, JSON.stringify(metafile));
      const zipBytes = writeLambdaZip(artefacts.zip, [artefacts.bundle, artefacts.sourceMap]);
      return { entry, artefacts, bundleBytes: statSync(artefacts.bundle).size, zipBytes };
    }),
  );
}
