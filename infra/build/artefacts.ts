import { join } from 'node:path';

/**
 * Where `eddy build` puts a function's deployable artefacts, and where `eddy synth` points
 * CodeUri: one place, so the template always names what the build wrote.
 *
 *   <outDir>/functions/<name>/index.mjs      the bundle (Lambda handler `index.handler`)
 *   <outDir>/functions/<name>/index.mjs.map  its source map
 *   <outDir>/functions/<name>/meta.json      esbuild's metafile (what went into the bundle)
 *   <outDir>/functions/<name>.zip            index.mjs + index.mjs.map, the deployment package
 */
export interface FunctionArtefacts {
  readonly directory: string;
  readonly bundle: string;
  readonly sourceMap: string;
  readonly meta: string;
  readonly zip: string;
}

/** The default build directory (`eddy build --out`, `eddy synth --build-dir`). */
export const DEFAULT_BUILD_DIRECTORY = 'dist';

/** The Lambda handler setting of every bundle: file `index.mjs`, export `handler`. */
export const LAMBDA_HANDLER = 'index.handler';

export function artefactsOf(outDir: string, functionName: string): FunctionArtefacts {
  const directory = join(outDir, 'functions', functionName);
  return {
    directory,
    bundle: join(directory, 'index.mjs'),
    sourceMap: join(directory, 'index.mjs.map'),
    meta: join(directory, 'meta.json'),
    zip: join(outDir, 'functions', `${functionName}.zip`),
  };
}
