export { ARCHIVER_NAME, archiveResources } from './archive.js';
export { Destinations, PLACEHOLDER_ACCOUNT, type ResolvedDestination } from './destinations.js';
export {
  DEFAULT_RUNTIME,
  DEFAULT_STARTING_POSITION,
  type FunctionContext,
  functionResource,
  LAMBDA_RUNTIMES,
  type LambdaRuntime,
  type SamEvent,
  STREAM_EVENT_SETTINGS,
  samFunction,
  scheduleEvent,
  streamEvent,
} from './functions.js';
export { renderTemplate } from './render.js';
export { type SynthOptions, type SynthResult, synthesize } from './synthesize.js';
export { streamViewTypeOf, tableResource } from './tables.js';
export {
  type GetAtt,
  type Intrinsic,
  LogicalIds,
  NOT_DEPLOYED,
  type PolicyStatement,
  type Ref,
  type SamTemplate,
  SynthError,
  TEMPLATE_FORMATS,
  type TemplateFormat,
  type TemplateResource,
  type TemplateValue,
} from './template.js';
