export { configurationOf, type EventSourceMappingConfiguration } from './configuration.js';
export {
  InvalidParameterValueException,
  LambdaResourceNotFoundException,
  LambdaServiceError,
  LambdaValidationException,
  ResourceConflictException,
} from './errors.js';
export {
  EventSourceMapping,
  type MappingCheckpoint,
  type MappingSource,
  type MappingStateName,
  type ShardCheckpoint,
} from './eventSourceMapping.js';
export {
  type DestinationResolver,
  type FailureCondition,
  type FailureDestination,
  type FailureNotice,
  type InvocationRecord,
  invocationRecord,
  isoSeconds,
} from './failureRecord.js';
export type { MappingInspection } from './inspection.js';
export {
  type FunctionResolver,
  functionNameOf,
  type InvocationResult,
  type MappedFunction,
} from './invoke.js';
export { type InternalMappingOptions, MappingManager, type MappingManagerOptions } from './manager.js';
export type { PendingRecord } from './records.js';
export { type AttemptOutcome, classifyResult } from './responses.js';
export {
  type CreateEventSourceMappingInput,
  type EventSourceMappingSettingsInput,
  MAPPING_DEFAULTS,
  type MappingSettings,
  type UpdateEventSourceMappingInput,
} from './settings.js';
