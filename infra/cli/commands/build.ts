import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { BindingError } from '../../bindings.js';
import { DEFAULT_BUILD_DIRECTORY } from '../../build/artefacts.js';
import { BuildError } from '../../build/errors.js';
import { ConfigError } from '../loadConfig.js';
import type { CliIo } from '../program.js';
import { loadProjectConfig, NoConfigError, withTemplateOptions } from './projectConfig.js';

/**
 * `eddy build`: bundles the functions the project's template deploys (its own, and the archiver
 * when `archive` is set) into `<out>/functions/<name>/index.mjs` and `<out>/functions/<name>.zip`,
 * the deployment packages `eddy synth` points CodeUri at. The bundler loads when the command runs.
 */
const BUILD_HELP = `
Each function becomes one ESM bundle (esbuild, platform node, Node 20 syntax) exporting its
handler as \`handler\`, so Lambda's handler setting is index.handler; the zip holds index.mjs and
its source map. The AWS SDK is bundled too (the runtime's copy changes with runtime updates).

Examples:
  eddy build                              # eddy.config.* here → dist/functions/
  eddy build --config examples/votes/eddy.config.ts --out build
  eddy build && eddy synth --out template.yaml && sam deploy --guided`;

interface BuildCliOptions {
  config?: string;
  out: string;
  minify?: boolean;
}

export function addBuildCommand(program: Command, io: CliIo): Command {
  return withTemplateOptions(program.command('build'))
    .description('Bundle and zip the project functions for Lambda (what `eddy synth` deploys).')
    .option('-c, --config <file>', 'config file (default: eddy.config.* in the working directory)')
    .option('-o, --out <dir>', 'build directory', DEFAULT_BUILD_DIRECTORY)
    .option('--minify', 'minify the bundles (smaller zips, less readable stack traces)')
    .addHelpText('after', BUILD_HELP)
    .action(async (options: BuildCliOptions) => {
      try {
        const { buildProject } = await import('../../build/build.js');
        const project = await loadProjectConfig(io.cwd, options, io.printError);
        const outDir = resolve(io.cwd, options.out);
        const started = performance.now();
        const built = await buildProject({
          config: project.config,
          baseDirectory: project.baseDirectory,
          outDir,
          ...(options.minify ? { minify: true } : {}),
        });
        for (const { entry, artefacts, bundleBytes, zipBytes } of built) {
          io.print(
            `built ${entry.name} → ${relative(io.cwd, artefacts.zip)} (${kib(zipBytes)} zipped, index.mjs ${kib(bundleBytes)})`,
          );
        }
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        io.print(`${built.length} functions built in ${seconds} s`);
      } catch (error) {
        if (
          error instanceof NoConfigError ||
          error instanceof ConfigError ||
          error instanceof BindingError ||
          error instanceof BuildError
        ) {
          io.printError(`eddy build: ${error.message}`);
          io.exit(1);
          return;
        }
        throw error;
      }
    });
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
