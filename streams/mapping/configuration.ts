import type { EventSourceMapping, MappingStateName } from './eventSourceMapping.js';

/**
 * EventSourceMappingConfiguration, the shape Create/Get/Update/Delete/ListEventSourceMappings
 * answer (docs/streams-and-lambda.md §2.1.15; members in the order of the recorded responses, DynamoDB
 * members only). https://docs.aws.amazon.com/lambda/latest/api/API_EventSourceMappingConfiguration.html
 */
export interface EventSourceMappingConfiguration {
  readonly BatchSize: number;
  readonly BisectBatchOnFunctionError: boolean;
  readonly DestinationConfig: { readonly OnFailure: { readonly Destination?: string } };
  readonly EventSourceArn: string;
  readonly EventSourceMappingArn: string;
  readonly FilterCriteria?: { readonly Filters: readonly { readonly Pattern: string }[] };
  readonly FunctionArn: string;
  readonly FunctionResponseTypes: readonly string[];
  /** Epoch seconds (the wire's timestamp form). */
  readonly LastModified: number;
  readonly LastProcessingResult: string;
  readonly MaximumBatchingWindowInSeconds: number;
  readonly MaximumRecordAgeInSeconds: number;
  readonly MaximumRetryAttempts: number;
  readonly ParallelizationFactor: number;
  readonly StartingPosition: string;
  readonly State: MappingStateName;
  readonly StateTransitionReason: string;
  readonly TumblingWindowInSeconds: number;
  readonly UUID: string;
}

/** The configuration of a mapping, optionally as it reads in a transitional state. */
export function configurationOf(
  mapping: EventSourceMapping,
  where: { readonly accountId: string; readonly region: string },
  state: MappingStateName = mapping.reportedState,
): EventSourceMappingConfiguration {
  const settings = mapping.settings;
  const destination = settings.onFailureDestination;
  const configuration: Record<string, unknown> = {
    BatchSize: settings.batchSize,
    BisectBatchOnFunctionError: settings.bisectBatchOnFunctionError,
    DestinationConfig: { OnFailure: destination === undefined ? {} : { Destination: destination } },
    EventSourceArn: mapping.eventSourceArn,
    EventSourceMappingArn: `arn:aws:lambda:${where.region}:${where.accountId}:event-source-mapping:${mapping.uuid}`,
  };
  if (settings.filterPatterns.length > 0)
    configuration.FilterCriteria = { Filters: settings.filterPatterns.map((Pattern) => ({ Pattern })) };
  Object.assign(configuration, {
    FunctionArn: mapping.fn.functionArn,
    FunctionResponseTypes: settings.reportBatchItemFailures ? ['ReportBatchItemFailures'] : [],
    LastModified: mapping.lastModified / 1000,
    LastProcessingResult: mapping.counters.lastProcessingResult,
    MaximumBatchingWindowInSeconds: settings.maximumBatchingWindowInSeconds,
    MaximumRecordAgeInSeconds: settings.maximumRecordAgeInSeconds,
    MaximumRetryAttempts: settings.maximumRetryAttempts,
    ParallelizationFactor: settings.parallelizationFactor,
    StartingPosition: settings.startingPosition,
    State: state,
    StateTransitionReason: mapping.stateTransitionReason,
    TumblingWindowInSeconds: settings.tumblingWindowInSeconds,
    UUID: mapping.uuid,
  });
  return configuration as unknown as EventSourceMappingConfiguration;
}
