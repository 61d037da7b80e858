// The esbuild options eddy's code is compiled with. `keepNames: false` is the point of bundling
// eddy's own code rather than running it through tsx (see bin/eddy.mjs); packages stay imports,
// resolved from node_modules.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * RxJS compiled in: streams/rxjs.ts takes each RxJS function from its own CommonJS file with
 * `require` when eddy runs from its sources; in the package, the same names come from RxJS's ES
 * module build (`rxjs/dist/esm`, the `es2015` condition of its exports), bundled and tree-shaken
 * to the ~50 KB eddy uses. Loading the ~75 CommonJS files at every start cost ~140 M
 * instructions (callgrind) of `eddy serve`'s ~600 M above a bare node:http server; the bundled
 * code costs ~11 M. The version is the pinned dependency's. Observables still mix with a user's
 * own `rxjs` (a second copy of the same version): RxJS 7 recognizes observables, subscribers and
 * schedulers by shape (`lift`/`subscribe`, `Symbol.observable`), not by class.
 */
const rxjsEsm = {
  name: 'rxjs-esm',
  setup(build) {
    build.onLoad({ filter: /[\\/]streams[\\/]rxjs\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const names = [...source.matchAll(/^export const (\w+) = load\('(\w+)'/gm)].map((match) => {
        if (match[1] !== match[2]) throw new Error(`streams/rxjs.ts: ${match[1]} loads ${match[2]}`);
        return match[1];
      });
      const exported = source.match(/^export const /gm)?.length ?? 0;
      if (names.length === 0 || names.length !== exported)
        throw new Error("streams/rxjs.ts: every export must be `export const X = load('X', ...)`");
      return { contents: `export { ${names.join(', ')} } from 'rxjs';\n`, loader: 'js' };
    });
    // Only the import written above (its importer is streams/rxjs.ts): type imports vanish.
    build.onResolve({ filter: /^rxjs$/ }, ({ importer }) => {
      if (!/[\\/]streams[\\/]rxjs\.ts$/.test(importer)) return undefined;
      const root = dirname(createRequire(importer).resolve('rxjs/package.json'));
      return { path: join(root, 'dist', 'esm', 'index.js'), sideEffects: false };
    });
    // RxJS's ES module build takes its helpers (__awaiter, ...) from tslib: its ES module file too,
    // compiled in and tree-shaken, rather than three CommonJS files loaded at start.
    build.onResolve({ filter: /^tslib$/ }, ({ importer }) => {
      if (!/[\\/]rxjs[\\/]dist[\\/]esm[\\/]/.test(importer)) return undefined;
      return {
        path: join(dirname(createRequire(importer).resolve('tslib')), 'tslib.es6.mjs'),
        sideEffects: false,
      };
    });
  },
};

/** Options shared by the package build and the benchmarks (bench/bundle.ts). */
export const runtimeBundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  keepNames: false,
  // Non-ASCII characters (─, →, ≤ in strings and comments) written as escapes: V8 keeps a source
  // that is all one-byte characters as a one-byte string and scans it faster than a two-byte one;
  // one `→` anywhere makes the whole file two-byte. `eddy serve` to listening: ~1,056 → ~1,024 M
  // instructions (callgrind).
  charset: 'ascii',
  plugins: [rxjsEsm],
};

/**
 * The package's JavaScript (`npm run build:package`, and bin/eddy.mjs in a checkout whose dist/
 * is older than the sources): one file per entry point in dist/, what they share in chunks beside
 * them (`splitting`), so `eddy`, `eddy/testing`, `eddy/streams` and the CLI use the same classes.
 * A few files instead of ~300 modules: Node's ESM loader pays per module (resolution, reading,
 * compiling), and `eddy serve` starts in about half the CPU time (bench/startup.ts).
 *
 * Every file sits in dist/ itself, so `new URL('./workerEntry.js', import.meta.url)` finds the
 * worker's entry from whichever chunk the worker pool landed in.
 */
export const packageBundleOptions = {
  ...runtimeBundleOptions,
  entryPoints: {
    index: 'infra/index.ts',
    testing: 'infra/testing/index.ts',
    config: 'infra/config.ts',
    streams: 'streams/index.ts',
    // Loaded by path, not imported: the worker threads' entry and the archiver's Lambda entry,
    // which `eddy build` bundles for deployment (infra/build/bundleFunctions.ts).
    workerEntry: 'infra/functions/workerEntry.ts',
    'archiver-lambda': 'infra/archive/lambdaHandler.ts',
  },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  logLevel: 'silent',
};

/**
 * The `eddy` command (dist/cli.js, which bin/eddy.mjs runs), bundled apart from the entry points
 * above: its chunks (`cli-*.js`) are only what its own lazily loaded parts share, so `eddy serve`
 * loads a handful of files instead of ~50 shared chunks (Node's ES module loader pays ~1 M
 * instructions per module: resolution, reading, compiling). The command runs in a process of its
 * own; a user's config and handlers that import `eddy/config` or `eddy/streams` there get the
 * package's copy, which only hands data and functions to the command, never its classes.
 */
export const cliBundleOptions = {
  ...packageBundleOptions,
  entryPoints: { cli: 'infra/cli/main.ts' },
  chunkNames: 'cli-[hash]',
};

/**
 * The event-flow console's front end (infra/console/ui/), for the browser: dist/console/app.js
 * and style.css, which the console serves from the installed package (infra/console/assets.ts
 * builds the same files in memory when eddy runs from its sources).
 */
export const consoleBundleOptions = {
  entryPoints: { app: 'infra/console/ui/main.ts', style: 'infra/console/ui/style.css' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  outdir: 'dist/console',
  logLevel: 'silent',
};
