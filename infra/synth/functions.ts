import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { FunctionBinding, ScheduleBinding } from '../bindings.js';
import { LAMBDA_HANDLER } from '../build/artefacts.js';
import type { FunctionConfig, TableConfig } from '../config.js';
import type { Destinations } from './destinations.js';
import { streamViewTypeOf } from './tables.js';
import {
  defined,
  getAtt,
  type LogicalIds,
  type PolicyStatement,
  pascalCase,
  ref,
  SynthError,
  type TemplateResource,
  type Warn,
} from './template.js';

/**
 * Functions as `AWS::Serverless::Function` resources, their stream bindings as `DynamoDB` events
 * and their schedules as `Schedule` events.
 * https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-resource-function.html
 *
 * Permissions: SAM gives a function with a DynamoDB event read access to the stream
 * (AWSLambdaDynamoDBExecutionRole) and every function its logs (AWSLambdaBasicExecutionRole).
 * What a handler reads and writes is in its code, which eddy does not analyse: a project function
 * gets CRUD on the project's tables (SAM's DynamoDBCrudPolicy, table and indexes, nothing
 * outside the project), and its on-failure destinations exactly what Lambda needs to send to them.
 * A function that needs less (or other resources) is a reason to edit the template.
 */

/**
 * Lambda's Node.js runtimes a bundle runs on. Bundles are built for Node 20 (esbuild `target:
 * node20`, the oldest Node eddy supports), which every later runtime runs as well.
 */
export const LAMBDA_RUNTIMES = ['nodejs20.x', 'nodejs22.x', 'nodejs24.x'] as const;
export type LambdaRuntime = (typeof LAMBDA_RUNTIMES)[number];

/**
 * The default Runtime: nodejs22.x. Lambda deprecated nodejs20.x on 2026-04-30 and blocks creating
 * functions with it since 2026-06-01 (the deprecation table of
 * https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html, as cfn-lint 1.51 carries it
 * and reports it: E2533), so a nodejs20.x template no longer deploys. nodejs22.x (blocked from
 * 2027-06-01) still runs callback-style handlers, as eddy does locally; nodejs24.x
 * (`--runtime nodejs24.x`) no longer does.
 */
export const DEFAULT_RUNTIME: LambdaRuntime = 'nodejs22.x';

/**
 * The StartingPosition of a stream binding that sets none: the local stack's default
 * (infra/stack/localStack.ts). SAM requires one for DynamoDB events.
 */
export const DEFAULT_STARTING_POSITION = 'TRIM_HORIZON';

/**
 * The DynamoDB event's properties that a stream binding can set, besides Stream and
 * StartingPosition: the members of CreateEventSourceMapping that SAM passes through.
 * https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-property-function-dynamodb.html
 */
export const STREAM_EVENT_SETTINGS = [
  'BatchSize',
  'MaximumBatchingWindowInSeconds',
  'FilterCriteria',
  'FunctionResponseTypes',
  'MaximumRetryAttempts',
  'MaximumRecordAgeInSeconds',
  'BisectBatchOnFunctionError',
  'ParallelizationFactor',
  'TumblingWindowInSeconds',
  'Enabled',
] as const;

export interface FunctionContext {
  readonly ids: LogicalIds;
  /** The project's tables by name, with their logical ids. */
  readonly tables: ReadonlyMap<string, { readonly logicalId: string; readonly config: TableConfig }>;
  readonly destinations: Destinations;
  /** CodeUri of a function's deployment package (relative to the template). */
  readonly codeUriOf: (functionName: string) => string;
  readonly runtime: LambdaRuntime;
  /** Where the template is written, and where the config's relative paths start. */
  readonly templateDirectory: string;
  readonly baseDirectory: string;
  readonly warn: Warn;
}

/** A path of the config (relative to its folder) as the template's folder sees it, POSIX separators. */
export function templatePath(
  context: Pick<FunctionContext, 'templateDirectory' | 'baseDirectory'>,
  path: string,
): string {
  const absolute = isAbsolute(path) ? path : resolve(context.baseDirectory, path);
  return (relative(context.templateDirectory, absolute) || '.').split(sep).join('/');
}

/** CreateEventSourceMapping settings: a binding's (`StreamBinding['settings']`) or the archiver's. */
export interface StreamEventSettings {
  readonly StartingPosition?: string;
  readonly DestinationConfig?: { readonly OnFailure?: { readonly Destination?: string } };
}

export interface SamEvent {
  readonly Type: 'DynamoDB' | 'Schedule' | 'ScheduleV2';
  readonly Properties: Record<string, unknown>;
}

/** A stream binding's DynamoDB event, and what sending to its on-failure destination needs. */
export function streamEvent(
  table: string,
  settings: StreamEventSettings,
  path: string,
  context: FunctionContext,
  destinationPath = `${path}.DestinationConfig.OnFailure.Destination`,
): { event: SamEvent; statements: readonly PolicyStatement[] } {
  const target = context.tables.get(table);
  if (target === undefined) throw new SynthError(`${path}.table`, `no table '${table}' in tables`);
  if (streamViewTypeOf(target.config) === undefined) {
    throw new SynthError(
      `${path}.table`,
      `table '${table}' has no stream: enable its StreamSpecification to bind functions to it`,
    );
  }
  const known = new Set<string>([...STREAM_EVENT_SETTINGS, 'StartingPosition', 'DestinationConfig']);
  for (const key of Object.keys(settings)) {
    if (!known.has(key)) context.warn(`${path}.${key} is not a DynamoDB event property of SAM; not deployed`);
  }
  const onFailure = settings.DestinationConfig?.OnFailure?.Destination;
  const resolved =
    onFailure === undefined ? undefined : context.destinations.resolve(onFailure, destinationPath);
  const record = settings as Readonly<Record<string, unknown>>;
  return {
    event: {
      Type: 'DynamoDB',
      Properties: {
        Stream: getAtt(target.logicalId, 'StreamArn'),
        StartingPosition: settings.StartingPosition ?? DEFAULT_STARTING_POSITION,
        ...defined(Object.fromEntries(STREAM_EVENT_SETTINGS.map((key) => [key, record[key]]))),
        ...(resolved ? { DestinationConfig: { OnFailure: { Destination: resolved.destination } } } : {}),
      },
    },
    statements: resolved?.statements ?? [],
  };
}

/**
 * A schedule's `Schedule` event (an EventBridge rule). EventBridge runs rules at most once a
 * minute, in whole minutes (`bindings.ts` rounds), so a local rate that is not one deploys slower
 * or rounded, with a warning.
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-scheduled-rule-pattern.html
 */
export function scheduleEvent(schedule: ScheduleBinding, path: string, warn: Warn): SamEvent {
  // `at(...)` and time zones are EventBridge Scheduler's: SAM's ScheduleV2 event.
  // https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-property-function-schedulev2.html
  if (
    schedule.rateMs === undefined &&
    (schedule.timezone !== undefined || schedule.expression.startsWith('at('))
  )
    return {
      Type: 'ScheduleV2',
      Properties: {
        ScheduleExpression: schedule.expression,
        ...(schedule.timezone === undefined ? {} : { ScheduleExpressionTimezone: schedule.timezone }),
        State: schedule.enabled ? 'ENABLED' : 'DISABLED',
        ...(schedule.input === undefined ? {} : { Input: schedule.input }),
      },
    };
  if (schedule.rateMs !== undefined && schedule.rateMs % 60_000 !== 0) {
    warn(`${path}.rate runs every ${schedule.rateMs} ms locally; deployed it runs ${schedule.expression}`);
  }
  return {
    Type: 'Schedule',
    Properties: {
      Schedule: schedule.expression,
      Enabled: schedule.enabled,
      ...(schedule.input === undefined ? {} : { Input: schedule.input }),
    },
  };
}

/** Names events after their source, unique within the function (`VotesStream`, `Schedule2`). */
class EventNames {
  private readonly taken = new Set<string>();
  next(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}${n}`;
    this.taken.add(name);
    return name;
  }
}

/** A project function with its events and policies. */
export function functionResource(
  binding: FunctionBinding,
  config: FunctionConfig,
  baseDirectory: string,
  context: FunctionContext,
): { logicalId: string; resource: TemplateResource } {
  const path = `functions.${binding.functionName}`;
  const events: Record<string, SamEvent> = {};
  const statements: PolicyStatement[] = [];
  const names = new EventNames();
  // Bindings keep the config's order within streams and within schedules: walk both together.
  let stream = 0;
  let schedule = 0;
  (config.events ?? []).forEach((event, index) => {
    const eventPath = `${path}.events[${index}]`;
    if ('stream' in event) {
      const { table, settings } = binding.streams[stream++]!;
      const built = streamEvent(table, settings, `${eventPath}.stream`, context);
      events[names.next(`${pascalCase(table)}Stream`)] = built.event;
      statements.push(...built.statements);
    } else {
      events[names.next('Schedule')] = scheduleEvent(
        binding.schedules[schedule++]!,
        `${eventPath}.schedule`,
        context.warn,
      );
    }
  });
  const crud = [...context.tables.values()].map(({ logicalId }) => ({
    DynamoDBCrudPolicy: { TableName: ref(logicalId) },
  }));
  const handler = relative(baseDirectory, binding.handlerPath) || binding.handlerPath;
  // Node.js runtimes the config names are kept; otherwise the synth's.
  const runtime = (LAMBDA_RUNTIMES as readonly string[]).includes(binding.runtime ?? '')
    ? (binding.runtime as LambdaRuntime)
    : context.runtime;
  return {
    logicalId: context.ids.allocate(binding.functionName, 'Function'),
    resource: samFunction({
      metadata: {
        Eddy: {
          Name: binding.functionName,
          Handler: templatePath(context, binding.handlerPath),
          Export: binding.exportName,
          ...(binding.isolation === 'worker' ? { Isolation: 'worker' } : {}),
          ...(binding.build === undefined ? {} : { Build: binding.build }),
        },
      },
      description: `eddy function ${binding.functionName}: ${handler} (export ${binding.exportName})`,
      codeUri: context.codeUriOf(binding.functionName),
      runtime,
      timeout: binding.timeout,
      memorySize: binding.memorySize,
      environment: binding.environment,
      events,
      policies: [...crud, ...policyDocumentOf(statements)],
    }),
  };
}

export interface SamFunctionSettings {
  readonly description: string;
  readonly codeUri: string;
  readonly runtime: LambdaRuntime;
  readonly timeout: number;
  readonly memorySize: number;
  readonly environment: Readonly<Record<string, unknown>>;
  readonly events: Readonly<Record<string, SamEvent>>;
  readonly policies: readonly unknown[];
  /** The resource's Metadata (eddy's, for reading the template back). */
  readonly metadata?: Record<string, unknown>;
}

/** An `AWS::Serverless::Function` running a bundle of `eddy build`. */
export function samFunction(settings: SamFunctionSettings): TemplateResource {
  return {
    Type: 'AWS::Serverless::Function',
    Properties: {
      // Lambda's limit is 256 characters.
      Description: settings.description.slice(0, 256),
      CodeUri: settings.codeUri,
      Handler: LAMBDA_HANDLER,
      Runtime: settings.runtime,
      Timeout: settings.timeout,
      MemorySize: settings.memorySize,
      ...(Object.keys(settings.environment).length > 0
        ? { Environment: { Variables: settings.environment } }
        : {}),
      ...(settings.policies.length > 0 ? { Policies: settings.policies } : {}),
      ...(Object.keys(settings.events).length > 0 ? { Events: settings.events } : {}),
    },
    ...(settings.metadata === undefined ? {} : { Metadata: settings.metadata }),
  };
}

/** Statements as one inline policy document, each statement once. */
export function policyDocumentOf(statements: readonly PolicyStatement[]): unknown[] {
  const unique = [...new Map(statements.map((statement) => [JSON.stringify(statement), statement])).values()];
  return unique.length === 0 ? [] : [{ Version: '2012-10-17', Statement: unique }];
}
