import { isObject } from '../cloudformation/shapes.js';
import type { TemplatePath } from '../cloudformation/templateFile.js';

/**
 * A Serverless Framework service (serverless.yml, variables resolved) as the CloudFormation
 * template the Framework would deploy for it (docs/serverless.md §3), which the template loader
 * then reads as it reads any: each function an `AWS::Lambda::Function` named `<Name>LambdaFunction`,
 * each `stream` event an `AWS::Lambda::EventSourceMapping`, each `schedule` event an
 * `AWS::Events::Rule`, beside the service's own `resources`. The logical ids are the Framework's,
 * so `resources` that refer to a function (`!GetAtt OnOrderLambdaFunction.Arn`) find it.
 * https://www.serverless.com/framework/docs/providers/aws/guide/resources#aws-cloudformation-resource-reference
 * https://www.serverless.com/framework/docs/providers/aws/events/streams
 * https://www.serverless.com/framework/docs/providers/aws/events/schedule
 */
export interface CompiledService {
  readonly template: Record<string, unknown>;
  /** Where each generated resource comes from in serverless.yml, and its properties. */
  readonly places: ReadonlyMap<string, ResourcePlace>;
  /** Events and settings eddy does not run, by kind (`http event`), for the `ignored:` line. */
  readonly ignored: ReadonlyMap<string, number>;
  readonly notices: readonly string[];
}

export interface ResourcePlace {
  readonly path: TemplatePath;
  /** Property → where in serverless.yml it was written. */
  readonly properties: Readonly<Record<string, TemplatePath>>;
}

export interface CompileOptions {
  readonly fail: (path: TemplatePath, reason: string) => never;
}

/** The Framework's defaults (https://www.serverless.com/framework/docs/providers/aws/guide/functions). */
const DEFAULT_TIMEOUT = 6;
const DEFAULT_MEMORY_SIZE = 1024;
/** v4's default runtime (v3's, nodejs14.x, is no longer a Lambda runtime). */
const DEFAULT_RUNTIME = 'nodejs20.x';

/** `stream` event keys and the CreateEventSourceMapping members they become (the Framework's stream.js). */
const STREAM_KEYS: Readonly<Record<string, string>> = {
  batchSize: 'BatchSize',
  batchWindow: 'MaximumBatchingWindowInSeconds',
  startingPosition: 'StartingPosition',
  maximumRetryAttempts: 'MaximumRetryAttempts',
  maximumRecordAgeInSeconds: 'MaximumRecordAgeInSeconds',
  bisectBatchOnFunctionError: 'BisectBatchOnFunctionError',
  functionResponseType: 'FunctionResponseTypes',
  parallelizationFactor: 'ParallelizationFactor',
  tumblingWindowInSeconds: 'TumblingWindowInSeconds',
  filterPatterns: 'FilterCriteria',
  destinations: 'DestinationConfig',
  enabled: 'Enabled',
  arn: 'EventSourceArn',
};

/** The Framework's name of a function's resources: `on-order` → `OnDashorder`, `on_order` → `OnUnderscoreorder`. */
export function normalizedName(name: string): string {
  const alphanumeric = name
    .replaceAll('-', 'Dash')
    .replaceAll('_', 'Underscore')
    .replace(/[^A-Za-z0-9]/g, '');
  return alphanumeric.charAt(0).toUpperCase() + alphanumeric.slice(1);
}

export function compileService(service: Record<string, unknown>, options: CompileOptions): CompiledService {
  const { fail } = options;
  const provider = objectAt(service, ['provider'], fail) ?? {};
  if (provider.name !== undefined && provider.name !== 'aws')
    fail(['provider', 'name'], `provider ${String(provider.name)}: eddy runs AWS services only`);
  const resources: Record<string, unknown> = {};
  const places = new Map<string, ResourcePlace>();
  const ignored = new Map<string, number>();
  const notices: string[] = [];
  const ignore = (kind: string) => ignored.set(kind, (ignored.get(kind) ?? 0) + 1);
  const template: Record<string, unknown> = {
    AWSTemplateFormatVersion: '2010-09-09',
    ...ownSections(service, fail),
  };
  Object.assign(resources, (template.Resources as Record<string, unknown> | undefined) ?? {});

  const functions = objectAt(service, ['functions'], fail) ?? {};
  for (const [key, raw] of Object.entries(functions)) {
    const at: TemplatePath = ['functions', key];
    if (!isObject(raw)) fail(at, 'a function is a map (handler, events...)');
    const fn = raw as Record<string, unknown>;
    const logicalId = `${normalizedName(key)}LambdaFunction`;
    if (Object.hasOwn(resources, logicalId))
      fail(at, `its resource ${logicalId} is in resources.Resources too`);
    const name = fn.name ?? key;
    const environment = {
      ...(objectAt(provider, ['environment'], (_path, reason) => fail(['provider', 'environment'], reason)) ??
        {}),
      ...(objectAt(fn, ['environment'], (_path, reason) => fail([...at, 'environment'], reason)) ?? {}),
    };
    const image = fn.image !== undefined;
    resources[logicalId] = {
      Type: 'AWS::Lambda::Function',
      Properties: {
        FunctionName: name,
        ...(image ? { PackageType: 'Image' } : {}),
        Handler: fn.handler,
        Runtime: fn.runtime ?? provider.runtime ?? DEFAULT_RUNTIME,
        Timeout: fn.timeout ?? provider.timeout ?? DEFAULT_TIMEOUT,
        MemorySize: fn.memorySize ?? provider.memorySize ?? DEFAULT_MEMORY_SIZE,
        ...(Object.keys(environment).length === 0 ? {} : { Environment: { Variables: environment } }),
      },
    };
    const providerOr = (property: string): TemplatePath =>
      fn[property] !== undefined ? [...at, property] : ['provider', property];
    places.set(logicalId, {
      path: at,
      properties: {
        FunctionName: fn.name === undefined ? at : [...at, 'name'],
        Handler: [...at, 'handler'],
        Runtime: providerOr('runtime'),
        Timeout: providerOr('timeout'),
        MemorySize: providerOr('memorySize'),
        Environment: fn.environment !== undefined ? [...at, 'environment'] : ['provider', 'environment'],
      },
    });
    if (fn.events !== undefined && !Array.isArray(fn.events))
      fail([...at, 'events'], 'events is a list (- stream: ..., - schedule: ...)');
    const events = (fn.events ?? []) as unknown[];
    let schedules = 0;
    for (const [index, event] of events.entries()) {
      const eventAt: TemplatePath = [...at, 'events', index];
      if (!isObject(event) || Object.keys(event).length !== 1)
        fail(eventAt, 'an event is a map of one kind (stream, schedule, http...)');
      const [kind, settings] = Object.entries(event as Record<string, unknown>)[0]!;
      if (kind === 'stream') {
        const mapping = streamMapping(settings, logicalId, [...eventAt, 'stream'], fail);
        if (mapping === undefined) {
          ignore('kinesis stream event');
          continue;
        }
        const id = uniqueId(
          resources,
          `${normalizedName(key)}EventSourceMappingDynamodb${mapping.streamName}`,
        );
        resources[id] = mapping.resource;
        places.set(id, { path: [...eventAt, 'stream'], properties: mapping.properties });
      } else if (kind === 'schedule') {
        for (const rule of scheduleRules(settings, logicalId, [...eventAt, 'schedule'], fail)) {
          const id = `${normalizedName(key)}EventsRuleSchedule${++schedules}`;
          resources[id] = rule.resource;
          places.set(id, { path: [...eventAt, 'schedule'], properties: rule.properties });
        }
      } else ignore(`${kind} event`);
    }
  }
  if (isObject(service.plugins) || Array.isArray(service.plugins)) {
    const plugins = Array.isArray(service.plugins) ? service.plugins : (service.plugins.modules ?? []);
    if (Array.isArray(plugins) && plugins.length > 0)
      notices.push(`plugins are not run: ${plugins.map(String).join(', ')}`);
  }
  template.Resources = resources;
  return { template, places, ignored, notices };
}

/** `resources`: CloudFormation sections, as a map or (v3) a list of maps merged in order. */
function ownSections(
  service: Record<string, unknown>,
  fail: CompileOptions['fail'],
): Record<string, unknown> {
  const value = service.resources;
  if (value === undefined || value === null) return {};
  const parts = Array.isArray(value) ? value : [value];
  const sections: Record<string, Record<string, unknown>> = {};
  for (const [index, part] of parts.entries()) {
    const at: TemplatePath = Array.isArray(value) ? ['resources', index] : ['resources'];
    if (!isObject(part)) fail(at, 'resources is a map of CloudFormation sections (Resources, Outputs...)');
    for (const [section, members] of Object.entries(part as Record<string, unknown>)) {
      if (members === undefined || members === null) continue;
      if (!isObject(members)) fail([...at, section], `${section} must be a map`);
      sections[section] = { ...sections[section], ...(members as Record<string, unknown>) };
    }
  }
  return sections;
}

interface StreamMapping {
  readonly resource: Record<string, unknown>;
  readonly properties: Record<string, TemplatePath>;
  readonly streamName: string;
}

/**
 * A `stream` event as the Framework compiles it: BatchSize 10, StartingPosition TRIM_HORIZON and
 * Enabled true unless given; `functionResponseType` a one-item `FunctionResponseTypes`;
 * `filterPatterns` each a filter whose pattern is the JSON of the item; `destinations.onFailure` an
 * ARN or `{ arn, type }`. A Kinesis stream is undefined (eddy has no Kinesis).
 */
function streamMapping(
  settings: unknown,
  functionId: string,
  at: TemplatePath,
  fail: CompileOptions['fail'],
): StreamMapping | undefined {
  const event: Record<string, unknown> =
    typeof settings === 'string' || (isObject(settings) && !('arn' in settings) && isIntrinsic(settings))
      ? { arn: settings }
      : isObject(settings)
        ? settings
        : fail(at, 'a stream event is an ARN, or a map with arn (and type, batchSize...)');
  const arn = event.arn;
  if (arn === undefined) fail([...at, 'arn'], 'the stream ARN is required');
  const type = event.type ?? (typeof arn === 'string' ? arn.split(':')[2] : undefined);
  if (type === undefined)
    fail([...at, 'type'], 'type (dynamodb or kinesis) is required with an intrinsic arn');
  if (type === 'kinesis') return undefined;
  if (type !== 'dynamodb') fail([...at, 'type'], `type ${String(type)}: dynamodb or kinesis`);
  for (const key of Object.keys(event)) {
    if (key !== 'type' && key !== 'consumer' && !Object.hasOwn(STREAM_KEYS, key))
      fail([...at, key], `${key} is not a setting of a stream event`);
  }
  const properties: Record<string, unknown> = {
    EventSourceArn: arn,
    FunctionName: { Ref: functionId },
    BatchSize: event.batchSize ?? 10,
    StartingPosition: event.startingPosition ?? 'TRIM_HORIZON',
    Enabled: event.enabled ?? true,
  };
  const direct = [
    'batchWindow',
    'maximumRetryAttempts',
    'maximumRecordAgeInSeconds',
    'bisectBatchOnFunctionError',
    'parallelizationFactor',
    'tumblingWindowInSeconds',
  ];
  for (const key of direct) if (event[key] !== undefined) properties[STREAM_KEYS[key]!] = event[key];
  if (event.functionResponseType !== undefined)
    properties.FunctionResponseTypes = [event.functionResponseType];
  if (event.filterPatterns !== undefined) {
    if (!Array.isArray(event.filterPatterns))
      fail([...at, 'filterPatterns'], 'filterPatterns is a list of event patterns');
    properties.FilterCriteria = {
      Filters: (event.filterPatterns as unknown[]).map((pattern) => ({ Pattern: JSON.stringify(pattern) })),
    };
  }
  if (event.destinations !== undefined) {
    const destinations = isObject(event.destinations)
      ? event.destinations
      : fail([...at, 'destinations'], 'destinations is a map with onFailure');
    const onFailure = destinations.onFailure;
    const destination =
      isObject(onFailure) && !isIntrinsic(onFailure) ? onFailure.arn : (onFailure as unknown);
    if (destination === undefined)
      fail([...at, 'destinations', 'onFailure'], 'onFailure is an ARN, or a map with arn and type');
    properties.DestinationConfig = { OnFailure: { Destination: destination } };
  }
  const places: Record<string, TemplatePath> = {};
  for (const [key, property] of Object.entries(STREAM_KEYS))
    places[property] = event[key] !== undefined ? [...at, key] : at;
  if (typeof settings === 'string') places.EventSourceArn = at;
  return {
    resource: { Type: 'AWS::Lambda::EventSourceMapping', Properties: properties },
    properties: places,
    streamName: normalizedName(streamNameOf(arn)),
  };
}

/** The Framework names a mapping after its stream's table: the GetAtt resource, or the ARN's table. */
function streamNameOf(arn: unknown): string {
  if (isObject(arn)) {
    const getAtt = arn['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
    if (typeof arn.Ref === 'string') return arn.Ref;
    return 'Stream';
  }
  return typeof arn === 'string' ? (arn.split('/')[1] ?? 'Stream') : 'Stream';
}

function isIntrinsic(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0]!.startsWith('Fn::'));
}

/**
 * A `schedule` event: `rate(...)`/`cron(...)` text, or a map with `rate` (one expression or a
 * list: a rule each), `enabled`, `input`; the Framework's `name`, `description`, `method` and
 * `timezone` change nothing locally.
 */
function scheduleRules(
  settings: unknown,
  functionId: string,
  at: TemplatePath,
  fail: CompileOptions['fail'],
): { resource: Record<string, unknown>; properties: Record<string, TemplatePath> }[] {
  const event: Record<string, unknown> =
    typeof settings === 'string'
      ? { rate: settings }
      : isObject(settings)
        ? settings
        : fail(at, 'a schedule event is rate(...)/cron(...), or a map with rate');
  const rates = Array.isArray(event.rate) ? event.rate : [event.rate];
  if (event.rate === undefined) fail([...at, 'rate'], 'rate is required (rate(5 minutes), cron(...))');
  const input =
    event.input === undefined
      ? undefined
      : typeof event.input === 'string'
        ? event.input
        : JSON.stringify(event.input);
  return rates.map((rate, index) => ({
    resource: {
      Type: 'AWS::Events::Rule',
      Properties: {
        ScheduleExpression: rate,
        State: event.enabled === false ? 'DISABLED' : 'ENABLED',
        Targets: [
          {
            Id: `${functionId}Schedule`,
            Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
            ...(input === undefined ? {} : { Input: input }),
          },
        ],
      },
    },
    properties: {
      ScheduleExpression:
        typeof settings === 'string'
          ? at
          : Array.isArray(event.rate)
            ? [...at, 'rate', index]
            : [...at, 'rate'],
      State: event.enabled === undefined ? at : [...at, 'enabled'],
      Targets: event.input === undefined ? at : [...at, 'input'],
    },
  }));
}

function uniqueId(resources: Record<string, unknown>, base: string): string {
  if (!Object.hasOwn(resources, base)) return base;
  let index = 2;
  while (Object.hasOwn(resources, `${base}${index}`)) index++;
  return `${base}${index}`;
}

function objectAt(
  value: Record<string, unknown>,
  path: readonly string[],
  fail: CompileOptions['fail'],
): Record<string, unknown> | undefined {
  const member = value[path[0]!];
  if (member === undefined || member === null) return undefined;
  if (!isObject(member)) return fail(path, `${path.join('.')} must be a map`);
  return member;
}
