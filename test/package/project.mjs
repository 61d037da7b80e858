// A temporary project with eddy installed from its tarball, as a user's `npm i -D eddy` would
// have it: shared by `npm run test:package` (test/package/run.mjs) and `npm run bench -- startup`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** `name@version` as eddy's own package.json pins it (so the install reuses npm's cache). */
export function pinned(name) {
  const version = rootPackage.dependencies?.[name] ?? rootPackage.devDependencies?.[name];
  if (version === undefined) throw new Error(`${name} is not a dependency of eddy`);
  return `${name}@${version}`;
}

const npm = (args, cwd) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

/**
 * `npm pack` (its `prepack` builds dist/) into `directory`; returns the tarball's path and the
 * files it holds.
 */
export function pack(directory) {
  mkdirSync(directory, { recursive: true });
  const [result] = JSON.parse(npm(['pack', '--json', '--pack-destination', directory], ROOT));
  return { tarball: join(directory, result.filename), files: result.files.map((file) => file.path) };
}

/** A project in `directory` (an ES module package) with the tarball and `packages` installed. */
export function installProject(directory, tarball, packages = []) {
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    join(directory, 'package.json'),
    `${JSON.stringify({ name: 'eddy-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  npm(
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball, ...packages],
    directory,
  );
}
