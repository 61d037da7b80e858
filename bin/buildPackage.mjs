// `npm run build:package` (which `npm pack` runs first, as `prepack`): dist/ as the package ships it.
//   1. JavaScript: eddy's code bundled by esbuild into a few files (bundleOptions.mjs says why),
//      with linked source maps carrying the TypeScript sources.
//   2. Declarations: tsc -p tsconfig.build.json writes dist/types/ (the `types` of each export).
// bin/eddy.mjs runs step 1 alone (`bundlePackage`) in a checkout whose dist/ is older than its
// sources, so an edit needs no build step.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliBundleOptions, consoleBundleOptions, packageBundleOptions } from './bundleOptions.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Written last by every bundle: bin/eddy.mjs compares the sources' times with its time. */
export const STAMP = '.bundled';

/**
 * Bundles the package's JavaScript into `<root>/dist`. A file is rewritten only when its content
 * changed, through a temporary file and a rename, so concurrent starts and running servers are
 * safe; chunks are named by their content, so a running server's chunks stay where it loaded them.
 */
export async function bundlePackage(root = ROOT) {
  const { build } = await import('esbuild');
  const [result, cliResult, consoleResult] = await Promise.all([
    build({ ...packageBundleOptions, absWorkingDir: root, write: false }),
    build({ ...cliBundleOptions, absWorkingDir: root, write: false }),
    build({ ...consoleBundleOptions, absWorkingDir: root, write: false }),
  ]);
  const outDir = join(root, packageBundleOptions.outdir);
  mkdirSync(outDir, { recursive: true });
  mkdirSync(join(root, consoleBundleOptions.outdir), { recursive: true });
  const packageFiles = new Set([...result.outputFiles, ...cliResult.outputFiles]);
  for (const file of [...packageFiles, ...consoleResult.outputFiles]) {
    // Not the console's (for the browser, minified: its strings keep their characters).
    const contents =
      packageFiles.has(file) && file.path.endsWith('.js') ? asciiOnly(file.contents) : file.contents;
    let current;
    try {
      current = readFileSync(file.path);
    } catch {
      current = undefined;
    }
    if (current?.equals(contents)) continue;
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, contents);
    renameSync(temporary, file.path);
  }
  writeFileSync(join(outDir, STAMP), `${new Date().toISOString()}\n`);
}

/**
 * The JavaScript with every non-ASCII character left (only in comments: esbuild's
 * `charset: 'ascii'` escapes strings, regular expressions and names) replaced by `?`, one per
 * UTF-16 unit so the source map's columns stay right. V8 scans a source that is all one-byte
 * characters as a one-byte string; one `§` or `→` in a comment makes the whole file two-byte
 * (bundleOptions.mjs has the figures).
 */
function asciiOnly(contents) {
  if (contents.every((byte) => byte < 0x80)) return contents;
  const text = Buffer.from(contents).toString('utf8');
  return Buffer.from(text.replace(/[\u0080-\u{10ffff}]/gu, (character) => '?'.repeat(character.length)));
}

async function buildPackage() {
  const started = performance.now();
  const outDir = join(ROOT, packageBundleOptions.outdir);
  mkdirSync(outDir, { recursive: true });
  // What the package ships starts empty: no chunk of an earlier build, no declaration of a
  // deleted source. (The other folders, e.g. dist/functions from `npm run build:functions`, stay.)
  for (const name of readdirSync(outDir, { withFileTypes: true }).map((entry) => entry.name)) {
    if (/\.(js|map)$/.test(name) || name === 'types' || name === 'console' || name === STAMP)
      rmSync(join(outDir, name), { recursive: true });
  }
  await bundlePackage(ROOT);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // Its messages to stderr, as this script's: `npm pack --json` prints the pack's JSON on stdout.
  const declarations = spawnSync(process.execPath, [tsc, '-p', resolve(ROOT, 'tsconfig.build.json')], {
    stdio: ['ignore', 2, 2],
  });
  if (declarations.status !== 0) process.exit(declarations.status ?? 1);
  console.error(`dist/ built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildPackage();
