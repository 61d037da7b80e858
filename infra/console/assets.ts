import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The page's script and style sheet, as the browser gets them. */
export interface ConsoleAssets {
  readonly script: Buffer;
  readonly style: Buffer;
}

/**
 * Where the console's front end comes from. The package ships it built (`npm run build`
 * bundles `infra/console/ui/` into `dist/console/`, beside the chunk this module lands in); run
 * from the sources (tests, tsx), esbuild bundles the same files in memory on first request.
 */
export async function loadConsoleAssets(): Promise<ConsoleAssets> {
  const prebuilt = new URL('./console/', import.meta.url);
  const script = new URL('app.js', prebuilt);
  if (existsSync(fileURLToPath(script)))
    return { script: readFileSync(script), style: readFileSync(new URL('style.css', prebuilt)) };
  return buildFromSources();
}

/** The front end's sources: beside this file, or from a checkout's dist/ (`bin/eddy.mjs`). */
function sourceFolder(): string {
  for (const candidate of ['./ui/', '../infra/console/ui/']) {
    const folder = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${folder}main.ts`)) return folder;
  }
  throw new Error('The console front end is neither built (dist/console/) nor beside its sources');
}

async function buildFromSources(): Promise<ConsoleAssets> {
  const folder = sourceFolder();
  // The same options as bin/bundleOptions.mjs's consoleBundleOptions (the package build).
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { app: `${folder}main.ts`, style: `${folder}style.css` },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    outdir: 'out',
    logLevel: 'silent',
  });
  const find = (suffix: string) => {
    const file = result.outputFiles.find((output) => output.path.endsWith(suffix));
    if (file === undefined) throw new Error(`esbuild wrote no ${suffix}`);
    return Buffer.from(file.contents);
  };
  return { script: find('app.js'), style: find('style.css') };
}

/**
 * The console's page. The token is the per-process secret that every write request must carry
 * (`x-eddy-console-token`): only a page this server served can read it (another origin is
 * refused, docs/console.md "Security").
 */
export function consolePage(token: string, basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="eddy-console-token" content="${token}">
<title>eddy console</title>
<link rel="stylesheet" href="${basePath}/style.css">
<script type="module" src="${basePath}/app.js"></script>
</head>
<body>
<noscript>The eddy console needs JavaScript.</noscript>
</body>
</html>
`;
}
