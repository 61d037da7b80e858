import type { BindingConfig, StreamBindingConfig } from '../../../config.js';
import { tableOfStreamArn } from '../../../replay/replaySetup.js';
import type { TemplateResolver } from './intrinsics.js';
import type { TemplatePath } from './templateFile.js';
import { compact, Values } from './values.js';

/**
 * What triggers a template's functions, as eddy bindings:
 * - a SAM function's `Events` of type `DynamoDB`, `Schedule` and `ScheduleV2`;
 * - `AWS::Lambda::EventSourceMapping` on a DynamoDB stream;
 * - `AWS::Events::Rule` and `AWS::Scheduler::Schedule` with a schedule, targeting a function.
 *
 * A stream binding names its table: the stream ARN (`Fn::GetAtt Table.StreamArn`, or written out)
 * is the table's. Its settings are CreateEventSourceMapping's members, which the SAM event and the
 * resource spell as the API does; the local stack checks them as Lambda does.
 * https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-property-function-dynamodb.html
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-lambda-eventsourcemapping.html
 */
export interface TemplateBinding {
  /** The function's local name. */
  readonly functionName: string;
  readonly binding: BindingConfig;
  /** Where it is written (for messages). */
  readonly path: TemplatePath;
}

export interface EventsContext {
  readonly resolver: TemplateResolver;
  /** Local names of the template's tables. */
  readonly tables: ReadonlySet<string>;
  /** Local names of the template's functions. */
  readonly functions: ReadonlySet<string>;
  /** Something eddy does not run, grouped by what it is (`Api event`, `AWS::Events::Rule (event pattern)`). */
  readonly ignore: (kind: string) => void;
  readonly notice: (line: string) => void;
}

/** Settings of a stream binding besides the table, as the API (and SAM) spell them. */
const MAPPING_NUMBERS = [
  'BatchSize',
  'MaximumBatchingWindowInSeconds',
  'MaximumRetryAttempts',
  'MaximumRecordAgeInSeconds',
  'ParallelizationFactor',
  'TumblingWindowInSeconds',
] as const;
const MAPPING_BOOLEANS = ['BisectBatchOnFunctionError', 'Enabled'] as const;
/** Members a mapping may have that change nothing locally (encryption, metrics, tags...). */
const QUIET_MEMBERS = new Set([
  'KmsKeyArn',
  'MetricsConfig',
  'Tags',
  'FunctionName',
  'EventSourceArn',
  'Stream',
  'Type',
]);

/** The SAM events of a function. */
export function samEvents(
  context: EventsContext,
  logicalId: string,
  functionName: string,
): TemplateBinding[] {
  const { resolver } = context;
  const values = new Values(resolver);
  const events = values.object(resolver.resource(logicalId)?.Properties?.Events, [
    'Resources',
    logicalId,
    'Properties',
    'Events',
  ]);
  const bindings: TemplateBinding[] = [];
  for (const [eventName, raw] of Object.entries(events ?? {})) {
    const path: TemplatePath = ['Resources', logicalId, 'Properties', 'Events', eventName];
    const event = values.object(resolver.resolve(raw, path), path) ?? {};
    const type = values.string(event.Type, [...path, 'Type']);
    const properties = values.object(event.Properties, [...path, 'Properties']) ?? {};
    const at = [...path, 'Properties'];
    if (type === 'DynamoDB') {
      const stream = streamBinding(context, properties, at, 'Stream', `${functionName} event ${eventName}`);
      if (stream !== undefined) bindings.push({ functionName, binding: { stream }, path });
    } else if (type === 'Schedule' || type === 'ScheduleV2') {
      const expression = values.string(
        type === 'Schedule' ? properties.Schedule : properties.ScheduleExpression,
        [...at, type === 'Schedule' ? 'Schedule' : 'ScheduleExpression'],
      );
      const enabled =
        properties.State !== undefined
          ? properties.State === 'ENABLED'
          : (values.boolean(properties.Enabled, [...at, 'Enabled']) ?? true);
      const timezone =
        type === 'ScheduleV2'
          ? values.string(properties.ScheduleExpressionTimezone, [...at, 'ScheduleExpressionTimezone'])
          : undefined;
      const schedule = scheduleBinding(
        context,
        expression,
        enabled,
        properties.Input,
        `${functionName} event ${eventName}`,
        timezone,
      );
      if (schedule !== undefined) bindings.push({ functionName, binding: schedule, path });
    } else {
      context.ignore(`${type ?? 'untyped'} event`);
    }
  }
  return bindings;
}

/** An `AWS::Lambda::EventSourceMapping` on a DynamoDB stream. */
export function eventSourceMapping(context: EventsContext, logicalId: string): TemplateBinding | undefined {
  const { resolver } = context;
  const values = new Values(resolver);
  const path: TemplatePath = ['Resources', logicalId, 'Properties'];
  const properties =
    values.object(resolver.resolve(resolver.resource(logicalId)?.Properties ?? {}, path), path) ?? {};
  const sourceArn = values.string(properties.EventSourceArn, [...path, 'EventSourceArn']);
  if (sourceArn === undefined || !/^arn:[^:]+:dynamodb:/.test(sourceArn)) {
    const service = sourceArn === undefined ? 'no EventSourceArn' : (sourceArn.split(':')[2] ?? 'unknown');
    context.ignore(`AWS::Lambda::EventSourceMapping (${service})`);
    return undefined;
  }
  const functionName = functionOf(context, properties.FunctionName, [...path, 'FunctionName']);
  const stream = streamBinding(context, properties, path, 'EventSourceArn', logicalId);
  return stream === undefined
    ? undefined
    : { functionName, binding: { stream }, path: ['Resources', logicalId] };
}

/** An `AWS::Events::Rule` with a ScheduleExpression: one schedule binding per function target. */
export function scheduleRule(context: EventsContext, logicalId: string): TemplateBinding[] {
  const { resolver } = context;
  const values = new Values(resolver);
  const path: TemplatePath = ['Resources', logicalId, 'Properties'];
  const expression = values.string(resolver.property(logicalId, 'ScheduleExpression'), [
    ...path,
    'ScheduleExpression',
  ]);
  if (expression === undefined) {
    context.ignore('AWS::Events::Rule (event pattern)');
    return [];
  }
  const state = values.string(resolver.property(logicalId, 'State'), [...path, 'State']) ?? 'ENABLED';
  const targets = values.list(resolver.property(logicalId, 'Targets'), [...path, 'Targets']) ?? [];
  return targets.flatMap((target, index) => {
    const at = [...path, 'Targets', index];
    const item = values.object(target, at) ?? {};
    const functionName = lambdaTarget(context, item.Arn, [...at, 'Arn']);
    if (functionName === undefined) return [];
    const schedule = scheduleBinding(context, expression, state.startsWith('ENABLED'), item.Input, logicalId);
    return schedule === undefined ? [] : [{ functionName, binding: schedule, path: at }];
  });
}

/** An `AWS::Scheduler::Schedule` whose target is a function. */
export function schedulerSchedule(context: EventsContext, logicalId: string): TemplateBinding | undefined {
  const { resolver } = context;
  const values = new Values(resolver);
  const path: TemplatePath = ['Resources', logicalId, 'Properties'];
  const expression = values.string(resolver.property(logicalId, 'ScheduleExpression'), [
    ...path,
    'ScheduleExpression',
  ]);
  const state = values.string(resolver.property(logicalId, 'State'), [...path, 'State']) ?? 'ENABLED';
  const target = values.object(resolver.property(logicalId, 'Target'), [...path, 'Target']) ?? {};
  const functionName = lambdaTarget(context, target.Arn, [...path, 'Target', 'Arn']);
  if (functionName === undefined) return undefined;
  const timezone = values.string(resolver.property(logicalId, 'ScheduleExpressionTimezone'), [
    ...path,
    'ScheduleExpressionTimezone',
  ]);
  const schedule = scheduleBinding(
    context,
    expression,
    state === 'ENABLED',
    target.Input,
    logicalId,
    timezone,
  );
  return schedule === undefined
    ? undefined
    : { functionName, binding: schedule, path: ['Resources', logicalId] };
}

function streamBinding(
  context: EventsContext,
  properties: Record<string, unknown>,
  path: TemplatePath,
  arnProperty: 'Stream' | 'EventSourceArn',
  label: string,
): StreamBindingConfig | undefined {
  const values = new Values(context.resolver);
  const arn = values.string(properties[arnProperty], [...path, arnProperty]);
  if (arn === undefined) return values.fail([...path, arnProperty], 'the DynamoDB stream ARN is required');
  const table = tableOfStreamArn(arn);
  if (table === undefined)
    return values.fail(
      [...path, arnProperty],
      `'${arn}' is not a DynamoDB stream ARN (Fn::GetAtt <table>.StreamArn)`,
    );
  if (!context.tables.has(table))
    return values.fail(
      [...path, arnProperty],
      `the stream of table '${table}', which is not a table of the template (tables: ${[...context.tables].join(', ') || 'none'})`,
    );
  const settings: Record<string, unknown> = {};
  for (const key of MAPPING_NUMBERS) settings[key] = values.number(properties[key], [...path, key]);
  for (const key of MAPPING_BOOLEANS) settings[key] = values.boolean(properties[key], [...path, key]);
  const destination = destinationOf(values, properties.DestinationConfig, [...path, 'DestinationConfig']);
  const unknown = Object.keys(properties).filter(
    (key) =>
      !QUIET_MEMBERS.has(key) &&
      ![
        ...MAPPING_NUMBERS,
        ...MAPPING_BOOLEANS,
        'StartingPosition',
        'FilterCriteria',
        'FunctionResponseTypes',
        'DestinationConfig',
      ].includes(key),
  );
  if (unknown.length > 0) context.notice(`${label}: ${unknown.join(', ')} not emulated`);
  return compact({
    table,
    StartingPosition: values.string(properties.StartingPosition, [...path, 'StartingPosition']),
    FilterCriteria: properties.FilterCriteria,
    FunctionResponseTypes: properties.FunctionResponseTypes,
    ...settings,
    DestinationConfig: destination,
  }) as unknown as StreamBindingConfig;
}

/** `DestinationConfig.OnFailure.Destination` (SAM adds a `Type`, which the ARN says already). */
function destinationOf(values: Values, value: unknown, path: TemplatePath) {
  const config = values.object(value, path);
  const onFailure = values.object(config?.OnFailure, [...path, 'OnFailure']);
  const destination = values.string(onFailure?.Destination, [...path, 'OnFailure', 'Destination']);
  return destination === undefined ? undefined : { OnFailure: { Destination: destination } };
}

/**
 * A schedule binding for a `rate(...)`, `cron(...)` or `at(...)` expression, with the Scheduler's
 * time zone (docs/templates.md §3.6); the expression is checked where the bindings are read.
 */
function scheduleBinding(
  _context: EventsContext,
  expression: string | undefined,
  enabled: boolean,
  input: unknown,
  _label: string,
  timezone?: string,
): BindingConfig | undefined {
  if (expression === undefined) return undefined;
  // The target's Input is the event the function gets (JSON text; a map is written as JSON).
  const text = input === undefined || typeof input === 'string' ? input : JSON.stringify(input);
  return {
    schedule: {
      rate: expression.trim(),
      Enabled: enabled,
      ...(timezone === undefined ? {} : { Timezone: timezone }),
      ...(text === undefined ? {} : { Input: text }),
    },
  };
}

/** The local name of the function a mapping's FunctionName (name or ARN) names. */
function functionOf(context: EventsContext, value: unknown, path: TemplatePath): string {
  const values = new Values(context.resolver);
  const text = values.string(value, path);
  if (text === undefined) return values.fail(path, 'FunctionName is required');
  const name = /:function:([^:]+)/.exec(text)?.[1] ?? text;
  if (!context.functions.has(name))
    return values.fail(
      path,
      `'${name}' is not a function of the template (functions: ${[...context.functions].join(', ') || 'none'})`,
    );
  return name;
}

/** The function a rule's target ARN names, or undefined (with a note) for other targets. */
function lambdaTarget(context: EventsContext, value: unknown, path: TemplatePath): string | undefined {
  const values = new Values(context.resolver);
  const arn = values.string(value, path);
  const name =
    arn === undefined ? undefined : /^arn:[^:]+:lambda:[^:]*:[^:]*:function:([^:]+)/.exec(arn)?.[1];
  if (name === undefined) {
    context.ignore(`schedule target (${arn?.split(':')[2] ?? 'no Arn'})`);
    return undefined;
  }
  if (!context.functions.has(name))
    return values.fail(
      path,
      `'${name}' is not a function of the template (functions: ${[...context.functions].join(', ') || 'none'})`,
    );
  return name;
}
