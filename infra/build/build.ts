import type { EddyConfig } from '../config.js';
import {
  type BuiltFunction,
  builtInEntries,
  bundleFunctions,
  mergeEntries,
  projectEntries,
} from './bundleFunctions.js';

/**
 * The build of a project: what `eddy build` and `npm run build` run.
 *
 * @example
 * ```ts
 * const config = await loadConfig('eddy.config.ts');
 * const built = await buildProject({ config, baseDirectory: process.cwd(), outDir: 'dist' });
 * ```
 */
export interface BuildProjectOptions {
  /** The project's config; none: only built-ins (with `builtIns`). */
  readonly config?: EddyConfig;
  /** Where the config's relative handler paths start: the config file's folder. */
  readonly baseDirectory: string;
  /** The build directory (artefacts under `<outDir>/functions/`). */
  readonly outDir: string;
  /**
   * Also bundle every built-in (`functions/<name>/handler.ts`), not only those the template
   * deploys: eddy's own `npm run build` does.
   */
  readonly builtIns?: boolean;
  readonly minify?: boolean;
}

export async function buildProject(options: BuildProjectOptions): Promise<BuiltFunction[]> {
  const project = options.config === undefined ? [] : projectEntries(options.config, options.baseDirectory);
  const entries = mergeEntries(options.builtIns ? builtInEntries() : [], project);
  return bundleFunctions(entries, {
    outDir: options.outDir,
    ...(options.minify === undefined ? {} : { minify: options.minify }),
  });
}
