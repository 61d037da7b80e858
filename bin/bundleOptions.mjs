// The esbuild options eddy's code is compiled with. `keepNames: false` is the point of bundling
// eddy's own code rather than running it through tsx (see bin/eddy.mjs); packages stay imports,
// resolved from node_modules.

/** Options shared by the package build and the benchmarks (bench/bundle.ts). */
export const runtimeBundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  keepNames: false,
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
    cli: 'infra/cli/main.ts',
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
