export {
  type GsiMaintainer,
  type GsiMaintainerOptions,
  type IndexLag,
  startGsiMaintainer,
} from './gsiMaintainer.js';
export { HandlerLoadError, loadHandler } from './handlerModule.js';
export { InvocationLog, type InvocationLogEntry } from './invocationLog.js';
export { lambdaContext } from './lambdaContext.js';
export { type FunctionDefinition, LocalFunction } from './localFunction.js';
export { LocalFunctions, type LocalFunctionsOptions } from './localFunctions.js';
export { type FunctionError, type LambdaHandler, runHandler } from './runHandler.js';
