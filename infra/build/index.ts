export { artefactsOf, DEFAULT_BUILD_DIRECTORY, type FunctionArtefacts, LAMBDA_HANDLER } from './artefacts.js';
export { type BuildProjectOptions, buildProject } from './build.js';
export {
  archiverEntry,
  type BuiltFunction,
  type BundleOptions,
  builtInEntries,
  bundleFunctions,
  type FunctionEntry,
  mergeEntries,
  projectEntries,
} from './bundleFunctions.js';
export { BuildError } from './errors.js';
export { lambdaZip, writeLambdaZip } from './zip.js';
