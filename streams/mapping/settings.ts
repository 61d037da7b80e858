import { compileFilters } from '../filter/compileFilters.js';
import type { RecordMatcher } from '../filter/compilePattern.js';
import { InvalidPatternError } from '../filter/leafConditions.js';
import { type ConstraintViolation, InvalidParameterValueException, validationError } from './errors.js';

/**
 * Event source mapping settings (docs/streams-and-lambda.md §2.1): the CreateEventSourceMapping /
 * UpdateEventSourceMapping members that apply to DynamoDB streams, their defaults, ranges and Lambda's error
 * messages. https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-params.html
 */

export interface FilterCriteria {
  readonly Filters?: readonly { readonly Pattern?: string }[];
}

export interface DestinationConfig {
  readonly OnFailure?: { readonly Destination?: string };
  readonly OnSuccess?: { readonly Destination?: string };
}

/** The settings members shared by Create and Update (AWS spelling). */
export interface EventSourceMappingSettingsInput {
  readonly Enabled?: boolean;
  readonly BatchSize?: number;
  readonly MaximumBatchingWindowInSeconds?: number;
  readonly FilterCriteria?: FilterCriteria;
  readonly MaximumRetryAttempts?: number;
  readonly MaximumRecordAgeInSeconds?: number;
  readonly BisectBatchOnFunctionError?: boolean;
  readonly FunctionResponseTypes?: readonly string[];
  readonly DestinationConfig?: DestinationConfig;
  readonly ParallelizationFactor?: number;
  readonly TumblingWindowInSeconds?: number;
}

/** CreateEventSourceMapping's request (DynamoDB members). */
export interface CreateEventSourceMappingInput extends EventSourceMappingSettingsInput {
  readonly FunctionName: string;
  readonly EventSourceArn: string;
  readonly StartingPosition?: string;
  readonly StartingPositionTimestamp?: number | Date;
}

/** UpdateEventSourceMapping's request. */
export interface UpdateEventSourceMappingInput extends EventSourceMappingSettingsInput {
  readonly UUID: string;
  readonly FunctionName?: string;
}

export type StartingPosition = 'TRIM_HORIZON' | 'LATEST';

/** Settings with every default filled in and the filter compiled. */
export interface MappingSettings {
  readonly enabled: boolean;
  readonly batchSize: number;
  readonly maximumBatchingWindowInSeconds: number;
  readonly startingPosition: StartingPosition;
  /** The `Pattern` strings as given (shown back in the configuration). */
  readonly filterPatterns: readonly string[];
  /** The compiled OR of the patterns; undefined: deliver everything. */
  readonly filter: RecordMatcher | undefined;
  readonly maximumRetryAttempts: number;
  readonly maximumRecordAgeInSeconds: number;
  readonly bisectBatchOnFunctionError: boolean;
  readonly reportBatchItemFailures: boolean;
  /** `DestinationConfig.OnFailure.Destination` (an SQS, SNS or S3 ARN). */
  readonly onFailureDestination: string | undefined;
  readonly parallelizationFactor: number;
  readonly tumblingWindowInSeconds: number;
}

/** The defaults CreateEventSourceMapping fills in (docs/streams-and-lambda.md §2.1.15). */
export const MAPPING_DEFAULTS = {
  enabled: true,
  batchSize: 100,
  maximumBatchingWindowInSeconds: 0,
  maximumRetryAttempts: -1,
  maximumRecordAgeInSeconds: -1,
  bisectBatchOnFunctionError: false,
  parallelizationFactor: 1,
  tumblingWindowInSeconds: 0,
} as const;

/** Filters per mapping (docs/streams-and-lambda.md §3.1: 5, or 10 with a quota increase). */
export const MAX_FILTERS = 5;
/** Characters per filter pattern (docs/streams-and-lambda.md §3.1). */
export const MAX_PATTERN_LENGTH = 4096;

/**
 * Integer members, their wire names and ranges
 * (docs/streams-and-lambda.md §2.1.1, §2.1.2, §2.1.6, §2.1.7, §2.1.8, §2.1.11).
 */
const RANGES: readonly [keyof EventSourceMappingSettingsInput, string, number, number][] = [
  ['BatchSize', 'batchSize', 1, 10_000],
  ['MaximumBatchingWindowInSeconds', 'maximumBatchingWindowInSeconds', 0, 300],
  ['MaximumRetryAttempts', 'maximumRetryAttempts', -1, 10_000],
  ['MaximumRecordAgeInSeconds', 'maximumRecordAgeInSeconds', -1, 604_800],
  ['ParallelizationFactor', 'parallelizationFactor', 1, 10],
  ['TumblingWindowInSeconds', 'tumblingWindowInSeconds', 0, 900],
];

const STARTING_POSITIONS = ['LATEST', 'AT_TIMESTAMP', 'TRIM_HORIZON'];

function quoted(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `'[${value.join(', ')}]'`;
  return `'${String(value)}'`;
}

/** The request validator's checks, all reported together as Lambda does. */
function constraintViolations(
  input: EventSourceMappingSettingsInput & { StartingPosition?: string },
): ConstraintViolation[] {
  const violations: ConstraintViolation[] = [];
  for (const [key, member, min, max] of RANGES) {
    const value = input[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      violations.push({ value: quoted(value), member, constraint: 'Member must be an integer' });
    } else if (value < min) {
      violations.push({
        value: quoted(value),
        member,
        constraint: `Member must have value greater than or equal to ${min}`,
      });
    } else if (value > max) {
      violations.push({
        value: quoted(value),
        member,
        constraint: `Member must have value less than or equal to ${max}`,
      });
    }
  }
  const position = input.StartingPosition;
  if (position !== undefined && !STARTING_POSITIONS.includes(position)) {
    violations.push({
      value: quoted(position),
      member: 'startingPosition',
      constraint: `Member must satisfy enum value set: [${STARTING_POSITIONS.join(', ')}]`,
    });
  }
  const types = input.FunctionResponseTypes;
  if (
    types !== undefined &&
    (!Array.isArray(types) || types.some((type) => type !== 'ReportBatchItemFailures'))
  ) {
    violations.push({
      value: quoted(types),
      member: 'functionResponseTypes',
      constraint:
        'Member must satisfy constraint: [Member must satisfy enum value set: [ReportBatchItemFailures]]',
    });
  }
  input.FilterCriteria?.Filters?.forEach((filter, index) => {
    const pattern = filter?.Pattern;
    if (typeof pattern === 'string' && pattern.length > MAX_PATTERN_LENGTH) {
      violations.push({
        value: quoted(pattern),
        member: `filterCriteria.filters.${index + 1}.member.pattern`,
        constraint: `Member must have length less than or equal to ${MAX_PATTERN_LENGTH}`,
      });
    }
  });
  return violations;
}

/**
 * The patterns of a FilterCriteria; `{}` or no Filters removes filtering (docs/streams-and-lambda.md §3.2).
 */
function filterPatternsOf(criteria: FilterCriteria): string[] {
  const filters = criteria.Filters ?? [];
  if (!Array.isArray(filters)) throw new InvalidParameterValueException('Invalid filter pattern definition.');
  // eddy's wording: AWS documents the error but no message was recorded (docs/streams-and-lambda.md §3.1).
  if (filters.length > MAX_FILTERS)
    throw new InvalidParameterValueException(
      `The number of filters (${filters.length}) exceeds the maximum of ${MAX_FILTERS} per event source mapping.`,
    );
  return filters.map((filter) => {
    if (typeof filter?.Pattern !== 'string')
      throw new InvalidParameterValueException('Invalid filter pattern definition.');
    return filter.Pattern;
  });
}

function compileOrReject(patterns: readonly string[]): RecordMatcher | undefined {
  try {
    return compileFilters(patterns);
  } catch (error) {
    // docs/streams-and-lambda.md §3.2 (recorded message) and docs/streams-and-lambda.md §3.7/§6.8
    // (EventBridge-only operators rejected too).
    if (error instanceof InvalidPatternError)
      throw new InvalidParameterValueException('Invalid filter pattern definition.');
    throw error;
  }
}

/**
 * OnFailure only, to an SQS queue, SNS topic or S3 bucket; `''` removes it
 * (docs/streams-and-lambda.md §2.1.12).
 */
function onFailureOf(config: DestinationConfig): string | undefined {
  if (config.OnSuccess?.Destination !== undefined && config.OnSuccess.Destination !== '')
    // The wording AWS uses for destination members a mapping type does not support.
    throw new InvalidParameterValueException(
      'Unsupported DestinationConfig parameter for given event source mapping type.',
    );
  const destination = config.OnFailure?.Destination;
  if (destination === undefined || destination === '') return undefined;
  if (!/^arn:aws[a-z-]*:(sqs|sns|s3):/.test(destination))
    throw new InvalidParameterValueException(
      `The provided destination config DestinationConfig(onSuccess=null, onFailure=OnFailure(destination=${destination})) is invalid.`,
    );
  return destination;
}

function checkRecordAge(age: number | undefined): void {
  // docs/streams-and-lambda.md §2.1.8 / §6.10: the API range is -1..604800, but 0..59 are refused.
  if (age !== undefined && age >= 0 && age < 60)
    throw new InvalidParameterValueException(
      'MaximumRecordAgeInSeconds must be either -1 (forever) or between 60 and 604800 (inclusive)',
    );
}

/**
 * Validates a CreateEventSourceMapping request's settings and fills in the defaults.
 * @throws LambdaValidationException for range and enum violations (all at once);
 *   InvalidParameterValueException for the semantic checks.
 */
export function resolveCreateSettings(input: CreateEventSourceMappingInput): MappingSettings {
  const violations = constraintViolations(input);
  if (violations.length > 0) throw validationError(violations);
  const position = input.StartingPosition;
  if (input.StartingPositionTimestamp !== undefined && position !== 'AT_TIMESTAMP')
    throw new InvalidParameterValueException('Timestamp only valid with StartingPosition AT_TIMESTAMP');
  // docs/streams-and-lambda.md §2.1.4: AT_TIMESTAMP is Kinesis-only (recorded message).
  if (position === 'AT_TIMESTAMP')
    throw new InvalidParameterValueException(
      `Unsupported starting position for arn type: ${input.EventSourceArn}`,
    );
  // eddy's wording: StartingPosition is required for stream sources (docs/streams-and-lambda.md §2.1.4).
  if (position === undefined)
    throw new InvalidParameterValueException(
      'StartingPosition is required for DynamoDB stream event sources.',
    );
  checkRecordAge(input.MaximumRecordAgeInSeconds);
  const filterPatterns = input.FilterCriteria === undefined ? [] : filterPatternsOf(input.FilterCriteria);
  const filter = compileOrReject(filterPatterns);
  return {
    enabled: input.Enabled ?? MAPPING_DEFAULTS.enabled,
    batchSize: input.BatchSize ?? MAPPING_DEFAULTS.batchSize,
    maximumBatchingWindowInSeconds:
      input.MaximumBatchingWindowInSeconds ?? MAPPING_DEFAULTS.maximumBatchingWindowInSeconds,
    startingPosition: position as StartingPosition,
    filterPatterns,
    filter,
    maximumRetryAttempts: input.MaximumRetryAttempts ?? MAPPING_DEFAULTS.maximumRetryAttempts,
    maximumRecordAgeInSeconds: input.MaximumRecordAgeInSeconds ?? MAPPING_DEFAULTS.maximumRecordAgeInSeconds,
    bisectBatchOnFunctionError:
      input.BisectBatchOnFunctionError ?? MAPPING_DEFAULTS.bisectBatchOnFunctionError,
    reportBatchItemFailures: (input.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
    onFailureDestination:
      input.DestinationConfig === undefined ? undefined : onFailureOf(input.DestinationConfig),
    parallelizationFactor: input.ParallelizationFactor ?? MAPPING_DEFAULTS.parallelizationFactor,
    tumblingWindowInSeconds: input.TumblingWindowInSeconds ?? MAPPING_DEFAULTS.tumblingWindowInSeconds,
  };
}

/**
 * Applies an UpdateEventSourceMapping request: members given replace the current ones, the
 * others stay. `FilterCriteria: {}` removes the filters, `OnFailure.Destination: ''` the
 * destination.
 * @throws as `resolveCreateSettings`.
 */
export function resolveUpdateSettings(
  current: MappingSettings,
  input: EventSourceMappingSettingsInput,
): MappingSettings {
  const violations = constraintViolations(input);
  if (violations.length > 0) throw validationError(violations);
  checkRecordAge(input.MaximumRecordAgeInSeconds);
  let { filterPatterns, filter, onFailureDestination } = current;
  if (input.FilterCriteria !== undefined) {
    filterPatterns = filterPatternsOf(input.FilterCriteria);
    filter = compileOrReject(filterPatterns);
  }
  if (input.DestinationConfig !== undefined) onFailureDestination = onFailureOf(input.DestinationConfig);
  return {
    ...current,
    enabled: input.Enabled ?? current.enabled,
    batchSize: input.BatchSize ?? current.batchSize,
    maximumBatchingWindowInSeconds:
      input.MaximumBatchingWindowInSeconds ?? current.maximumBatchingWindowInSeconds,
    filterPatterns,
    filter,
    maximumRetryAttempts: input.MaximumRetryAttempts ?? current.maximumRetryAttempts,
    maximumRecordAgeInSeconds: input.MaximumRecordAgeInSeconds ?? current.maximumRecordAgeInSeconds,
    bisectBatchOnFunctionError: input.BisectBatchOnFunctionError ?? current.bisectBatchOnFunctionError,
    reportBatchItemFailures:
      input.FunctionResponseTypes === undefined
        ? current.reportBatchItemFailures
        : input.FunctionResponseTypes.includes('ReportBatchItemFailures'),
    onFailureDestination,
    parallelizationFactor: input.ParallelizationFactor ?? current.parallelizationFactor,
    tumblingWindowInSeconds: input.TumblingWindowInSeconds ?? current.tumblingWindowInSeconds,
  };
}
