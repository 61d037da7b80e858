import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface EddyPackage {
  readonly root: string;
  readonly version: string | undefined;
}

let found: EddyPackage | undefined | null = null;

/**
 * eddy's own package.json, found by walking up from this module: it sits at a different depth
 * when eddy runs from its TypeScript sources (`infra/package/`) than from the compiled package
 * (a file of `dist/`, what `npm i eddy` installs).
 */
function eddyPackage(): EddyPackage | undefined {
  if (found !== null) return found;
  found = undefined;
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5 && found === undefined; depth++) {
    try {
      const pkg = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      if (pkg.name === 'eddy')
        found = { root: directory, version: typeof pkg.version === 'string' ? pkg.version : undefined };
    } catch {
      // No package.json here (or not one we can read): keep walking up.
    }
    directory = dirname(directory);
  }
  return found;
}

/** eddy's version (its package.json's), or undefined when the file cannot be found. */
export function eddyVersion(): string | undefined {
  return eddyPackage()?.version;
}

/** eddy's package folder: the repository in a checkout, `node_modules/eddy` when installed. */
export function eddyPackageRoot(): string | undefined {
  return eddyPackage()?.root;
}
