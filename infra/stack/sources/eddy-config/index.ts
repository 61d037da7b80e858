import { basename, dirname, resolve } from 'node:path';
import { ConfigError, findConfigFile, loadConfig } from '../../../cli/loadConfig.js';
import type { StackSource } from '../stackDefinition.js';

/**
 * eddy's own `eddy.config.{ts,mts,mjs,js,json}` (infra/cli/loadConfig.ts reads and checks it): a
 * stack written directly in eddy's shape, one source among the others.
 */
export const eddyConfigSource: StackSource = {
  format: 'eddy-config',
  find: findConfigFile,
  async load(path, options) {
    const file = resolve(options.cwd, path);
    const config = await loadConfig(file);
    return {
      config,
      origin: { format: 'eddy-config', file, kind: 'eddy config', discovered: options.discovered === true },
      baseDirectory: dirname(file),
      notices: [],
      // An ES module config is evaluated once per process (import() caches it): only TypeScript
      // (tsx imports it afresh) and JSON configs are read again under --watch.
      watchFiles: /\.(m?ts|json)$/.test(file) ? [file] : [],
      errorAt: (where, reason, errorOptions) => new ConfigError(file, where, reason, errorOptions),
    };
  },
};

/** Whether a file name is an eddy config's (`eddy.config.ts`...). */
export function isEddyConfigFile(path: string): boolean {
  return /^eddy\.config\.[a-z]+$/.test(basename(path));
}
