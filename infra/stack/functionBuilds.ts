import { mkdirSync, rmSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { BuildFailure, BuildOptions, Loader } from 'esbuild';
import { BindingError, type FunctionBinding } from '../bindings.js';
import type { FunctionBuildConfig } from '../config.js';

/**
 * Functions whose stack asks for a build (SAM's `Metadata.BuildMethod: esbuild`): each handler is
 * bundled with its settings before it runs, as `sam build` bundles it before it deploys, so what
 * runs locally is what the settings make (the format, target, loaders, externals...).
 *
 * The bundle is `<outDirectory>/<function>/<entry name>.mjs` (or `.cjs` for format cjs: the
 * extension says what the module is, whatever the project's package.json says). Packages left
 * external resolve from the project's node_modules, as they would from the deployment package's.
 */
export async function buildFunctions(
  bindings: readonly FunctionBinding[],
  outDirectory: string,
): Promise<Map<string, string>> {
  const built = new Map<string, string>();
  if (bindings.length === 0) return built;
  const esbuild = await import('esbuild');
  await Promise.all(
    bindings.map(async (binding) => {
      const directory = join(outDirectory, binding.functionName);
      rmSync(directory, { recursive: true, force: true });
      mkdirSync(directory, { recursive: true });
      const outfile = join(directory, bundleName(binding.handlerPath, binding.build));
      try {
        await esbuild.build({
          ...esbuildOptionsOf(binding.build),
          entryPoints: [binding.handlerPath],
          outfile,
        });
      } catch (error) {
        const messages = (error as Partial<BuildFailure>).errors?.map(
          (message) =>
            `${message.location ? `${message.location.file}:${message.location.line}:${message.location.column}: ` : ''}${message.text}`,
        );
        throw new BindingError(
          `functions.${binding.functionName}`,
          `bundling ${binding.handlerPath} failed: ${messages?.join('; ') ?? String(error)}`,
        );
      }
      built.set(binding.functionName, outfile);
    }),
  );
  return built;
}

/** `payments.ts` → `payments.mjs` (esm) or `payments.cjs` (cjs, SAM's default format). */
export function bundleName(handlerPath: string, build: FunctionBuildConfig | undefined): string {
  const stem = basename(handlerPath, extname(handlerPath));
  return `${stem}${(build?.format ?? 'cjs') === 'esm' ? '.mjs' : '.cjs'}`;
}

/** esbuild options of a function's build settings (without entry and output). */
export function esbuildOptionsOf(build: FunctionBuildConfig | undefined): BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    format: build?.format ?? 'cjs',
    target: build?.target ?? 'node20',
    sourcemap: build?.sourcemap === true ? 'inline' : false,
    minify: build?.minify ?? false,
    logLevel: 'silent',
    ...(build?.external === undefined ? {} : { external: [...build.external] }),
    ...(build?.loader === undefined ? {} : { loader: build.loader as Record<string, Loader> }),
    ...(build?.define === undefined ? {} : { define: { ...build.define } }),
    ...(build?.banner === undefined ? {} : { banner: { js: build.banner } }),
    ...(build?.mainFields === undefined ? {} : { mainFields: [...build.mainFields] }),
  };
}
