import type { BuildOptions } from 'esbuild';

/** See bundleOptions.mjs. */
export declare const runtimeBundleOptions: BuildOptions;
