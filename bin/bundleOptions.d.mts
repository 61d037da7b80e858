import type { BuildOptions } from 'esbuild';

/** See bundleOptions.mjs. */
export declare const runtimeBundleOptions: BuildOptions;
export declare const packageBundleOptions: BuildOptions & {
  entryPoints: Record<string, string>;
  outdir: string;
};
