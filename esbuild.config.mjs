// `npm run build`: bundles every function into deployable artefacts (infra/build/artefacts.ts):
// `dist/functions/<name>/index.mjs` (+ map, meta.json) and `dist/functions/<name>.zip`, handler
// `index.handler`. That is each built-in `functions/<name>/handler.ts` (the archiver from its
// Lambda entry, which builds its S3 sink from the environment) and, when the working directory
// holds an `eddy.config.*`, the functions it declares. `eddy build` does the latter alone.
//
// The build itself is TypeScript (infra/build/), loaded through tsx as the config loader does, so
// this stays a plain `node esbuild.config.mjs` after `npm ci`. Also importable:
// `buildFunctions({ outDir, minify })`.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('.', import.meta.url));

export async function buildFunctions({
  outDir = resolve(root, 'dist'),
  minify = false,
  cwd = process.cwd(),
} = {}) {
  const { buildProject } = await tsImport('./infra/build/build.ts', import.meta.url);
  const { findConfigFile, loadConfig } = await tsImport('./infra/cli/loadConfig.ts', import.meta.url);
  const configFile = findConfigFile(cwd);
  const config = configFile === undefined ? undefined : await loadConfig(configFile);
  const built = await buildProject({
    config,
    baseDirectory: configFile === undefined ? cwd : dirname(configFile),
    outDir,
    builtIns: true,
    minify,
  });
  return { configFile, built };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { configFile, built } = await buildFunctions({ minify: process.argv.includes('--minify') });
  if (configFile !== undefined) console.log(`project functions from ${configFile}`);
  for (const { entry, artefacts, bundleBytes, zipBytes } of built) {
    const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
    console.log(
      `built ${entry.name} → ${artefacts.zip} (${kib(zipBytes)} zipped, index.mjs ${kib(bundleBytes)})`,
    );
  }
  console.log(`${built.length} functions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
