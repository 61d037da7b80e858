import { dirname, resolve } from 'node:path';
import type { EddyConfig } from '../../config.js';
import { CONFIG_FILE_NAMES, findConfigFile, loadConfig } from '../loadConfig.js';

/** `eddy build` and `eddy synth` need a config: the one given, or `eddy.config.*` here. */
export class NoConfigError extends Error {
  override readonly name = 'NoConfigError';
  constructor(readonly directory: string) {
    super(
      `no config: pass --config <file>, or run where one of ${CONFIG_FILE_NAMES.join(', ')} is (${directory})`,
    );
  }
}

export interface ProjectConfig {
  readonly file: string;
  readonly config: EddyConfig;
  /** The config file's folder: where its relative paths start. */
  readonly baseDirectory: string;
}

/**
 * Loads `--config` (relative to `cwd`) or the config file found in `cwd`.
 * @throws NoConfigError when there is none; ConfigError when it is bad.
 */
export async function loadProjectConfig(
  cwd: string,
  configOption: string | undefined,
): Promise<ProjectConfig> {
  const file = configOption === undefined ? findConfigFile(cwd) : resolve(cwd, configOption);
  if (file === undefined) throw new NoConfigError(cwd);
  return { file, config: await loadConfig(file), baseDirectory: dirname(file) };
}
