// The esbuild options eddy runs from (bin/eddy.mjs bundles the CLI with them at start) and the
// benchmarks are bundled with (bench/bundle.ts): one set, so a bench measures the code as
// `npm start` runs it. `keepNames: false` is the point (see bin/eddy.mjs); packages stay imports
// resolved from the root's node_modules.
export const runtimeBundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  keepNames: false,
};
