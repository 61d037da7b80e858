// Bundles every Lambda-shaped function `functions/<name>/handler.ts` into
// `dist/functions/<name>/index.mjs` (platform node, ESM, sourcemap, metafile), ready to zip and
// deploy. Run: `npm run build`. Also importable: `buildFunctions({ functionsDir, outDir })`.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Finds `<functionsDir>/<name>/handler.ts` entries (folders without a handler are skipped). */
export function findFunctions(functionsDir) {
  if (!existsSync(functionsDir)) return [];
  return readdirSync(functionsDir)
    .filter((name) => statSync(join(functionsDir, name)).isDirectory())
    .filter((name) => existsSync(join(functionsDir, name, 'handler.ts')))
    .sort();
}

export async function buildFunctions({
  functionsDir = join(root, 'functions'),
  outDir = join(root, 'dist', 'functions'),
  minify = false,
} = {}) {
  const names = findFunctions(functionsDir);
  const results = [];
  for (const name of names) {
    const outfile = join(outDir, name, 'index.mjs');
    const result = await esbuild.build({
      entryPoints: [join(functionsDir, name, 'handler.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      sourcemap: true,
      metafile: true,
      minify,
      logLevel: 'warning',
      // Bundled CommonJS dependencies may call require() for Node built-ins.
      banner: {
        js: "import { createRequire as __eddyCreateRequire } from 'node:module';\nconst require = __eddyCreateRequire(import.meta.url);",
      },
    });
    writeFileSync(join(outDir, name, 'meta.json'), JSON.stringify(result.metafile));
    results.push({ name, outfile, metafile: result.metafile });
  }
  return results;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const results = await buildFunctions();
  if (results.length === 0) console.log('No functions/<name>/handler.ts to build.');
  for (const { name, outfile, metafile } of results) {
    const bytes = Object.values(metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
    console.log(`built ${name} → ${outfile} (${(bytes / 1024).toFixed(1)} KiB with map)`);
  }
}
