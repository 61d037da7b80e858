import type {
  ArchiveConfig,
  BindingConfig,
  EddyConfig,
  FunctionConfig,
  TableConfig,
} from '../../../config.js';
import {
  type EventsContext,
  eventSourceMapping,
  samEvents,
  scheduleRule,
  schedulerSchedule,
  type TemplateBinding,
} from './events.js';
import { FUNCTION_TYPES, type FunctionReadOptions, readFunction } from './functions.js';
import { applyGlobals } from './globals.js';
import { type CfnTemplate, type ResolverOptions, TemplateResolver } from './intrinsics.js';
import { eddyMetadata } from './resourceAttributes.js';
import { isObject } from './shapes.js';
import { readTable, TABLE_TYPES } from './tables.js';
import type { TemplatePath } from './templateFile.js';

/**
 * A CloudFormation template's resources as an eddy stack: its tables, its Node.js functions with
 * their stream and schedule bindings, its on-failure destinations (by ARN, as the bindings name
 * them), and what it holds that eddy does not run, for the start banner.
 *
 * The serverless.yml loader reads its `resources.Resources` with this too (`readTemplateStack`
 * takes the template object, not a file).
 */
export interface TemplateStackOptions extends FunctionReadOptions, Omit<ResolverOptions, 'nameOf'> {
  /**
   * Tables outside this template that its bindings may read (the other stacks of a CDK assembly,
   * through exports); they are not created from this template.
   */
  readonly knownTables?: ReadonlySet<string>;
}

export interface TemplateStack {
  readonly config: EddyConfig;
  /** `SAM template` or `CloudFormation template`. */
  readonly kind: string;
  readonly notices: readonly string[];
  /** Where each table, function and binding of `config` is in the template (config path → template path). */
  readonly provenance: ReadonlyMap<string, TemplatePath>;
}

const SAM_TRANSFORM = 'AWS::Serverless-2016-10-31';
const KNOWN_TRANSFORMS = new Set([SAM_TRANSFORM, 'AWS::LanguageExtensions']);
const NESTED_STACK_TYPES = new Set(['AWS::CloudFormation::Stack', 'AWS::Serverless::Application']);
/** Types that do nothing a local stack could show: not even listed as ignored. */
const SILENT_TYPES = new Set(['AWS::CDK::Metadata']);
const DESTINATION_TYPES = new Set(['AWS::SQS::Queue', 'AWS::SNS::Topic', 'AWS::S3::Bucket']);

/** Settings eddy synth records in the template's `Metadata.Eddy.Local` (CloudFormation has no place for them). */
const LOCAL_SETTINGS = ['ttl', 'globalIndexes', 'streams', 'destinationsDirectory'] as const;

export function readTemplateStack(input: unknown, options: TemplateStackOptions): TemplateStack {
  const template = applyGlobals(checkSections(input, options.fail));
  checkParameters(template, options);
  const resolver = new TemplateResolver(template, options);
  const notices: string[] = [];
  const ignored = new Map<string, number>();
  const ignore = (kind: string) => ignored.set(kind, (ignored.get(kind) ?? 0) + 1);
  const provenance = new Map<string, TemplatePath>();

  for (const transform of transformsOf(template.Transform)) {
    if (!KNOWN_TRANSFORMS.has(transform)) notices.push(`Transform ${transform} is not applied`);
  }
  const included = resolver.resources().filter(([logicalId]) => resolver.included(logicalId));
  for (const [logicalId, resource] of included) {
    if (NESTED_STACK_TYPES.has(resource.Type))
      options.fail(
        ['Resources', logicalId, 'Type'],
        `${resource.Type} is a nested stack, which eddy does not read: run its template on its own, or move its resources into this one`,
      );
  }

  const tables: TableConfig[] = [];
  const tableNames = new Set<string>();
  for (const [logicalId, resource] of included) {
    if (!(TABLE_TYPES as readonly string[]).includes(resource.Type)) continue;
    const { table, notices: tableNotices } = readTable(resolver, logicalId);
    if (tableNames.has(table.TableName!))
      options.fail(['Resources', logicalId], `a second table named '${table.TableName}'`);
    tableNames.add(table.TableName!);
    provenance.set(`tables[${tables.length}]`, ['Resources', logicalId]);
    tables.push(table);
    notices.push(...tableNotices);
  }

  const functions: Record<string, FunctionConfig> = {};
  const functionIds = new Map<string, string>();
  let archive: ArchiveConfig | undefined;
  for (const [logicalId, resource] of included) {
    if (!(FUNCTION_TYPES as readonly string[]).includes(resource.Type)) continue;
    const metadata = eddyMetadata(resource);
    if (metadata?.BuiltIn === 'archiver' && isObject(metadata.Archive)) {
      // eddy's archiver, deployed by eddy synth: locally it is the archive setting again.
      archive = metadata.Archive as unknown as ArchiveConfig;
      continue;
    }
    const { name, config, notRunning } = readFunction(resolver, logicalId, options);
    if (Object.hasOwn(functions, name))
      options.fail(['Resources', logicalId], `a second function named '${name}'`);
    functions[name] = config;
    functionIds.set(logicalId, name);
    provenance.set(`functions.${name}`, ['Resources', logicalId]);
    // The banner shows it with its bindings, as not running (its config keeps the runtime).
    if (notRunning === 'a container image' || notRunning === 'no Runtime')
      notices.push(
        `function ${name} is not run (${notRunning}: eddy runs Node.js functions from local code)`,
      );
  }

  const context: EventsContext = {
    resolver,
    tables: new Set([...tableNames, ...(options.knownTables ?? [])]),
    functions: new Set(Object.keys(functions)),
    ignore,
    notice: (line) => notices.push(line),
  };
  const bindings: TemplateBinding[] = [];
  const used = new Set<string>([...functionIds.keys()]);
  for (const [logicalId, resource] of included) {
    const type = resource.Type;
    if ((TABLE_TYPES as readonly string[]).includes(type)) used.add(logicalId);
    else if (type === 'AWS::Serverless::Function' && functionIds.has(logicalId))
      bindings.push(...samEvents(context, logicalId, functionIds.get(logicalId)!));
    else if (type === 'AWS::Lambda::EventSourceMapping') {
      const binding = eventSourceMapping(context, logicalId);
      if (binding !== undefined) {
        bindings.push(binding);
        used.add(logicalId);
      } else used.add(logicalId);
    } else if (type === 'AWS::Events::Rule') {
      const rule = scheduleRule(context, logicalId);
      bindings.push(...rule);
      used.add(logicalId);
    } else if (type === 'AWS::Scheduler::Schedule') {
      const schedule = schedulerSchedule(context, logicalId);
      if (schedule !== undefined) bindings.push(schedule);
      used.add(logicalId);
    }
  }
  const byFunction = new Map<string, BindingConfig[]>();
  for (const { functionName, binding, path } of bindings) {
    const events = byFunction.get(functionName) ?? [];
    provenance.set(`functions.${functionName}.events[${events.length}]`, path);
    events.push(binding);
    byFunction.set(functionName, events);
  }
  for (const [name, events] of byFunction) functions[name] = { ...functions[name]!, events };

  // Queues, topics and buckets on-failure destinations name are kept by eddy (as files).
  const destinations = new Set([
    ...bindings.flatMap(({ binding }) =>
      'stream' in binding && binding.stream.DestinationConfig?.OnFailure?.Destination !== undefined
        ? [binding.stream.DestinationConfig.OnFailure.Destination]
        : [],
    ),
    ...(archive?.onFailure === undefined ? [] : [archive.onFailure]),
  ]);
  for (const [logicalId, resource] of included) {
    if (used.has(logicalId) || SILENT_TYPES.has(resource.Type)) continue;
    // eddy's own resources (the archive's bucket) come with the archive setting.
    if (eddyMetadata(resource)?.BuiltIn !== undefined) continue;
    if (DESTINATION_TYPES.has(resource.Type) && isDestination(resolver, logicalId, destinations)) continue;
    if (resource.Type === 'AWS::Serverless::Function' || resource.Type === 'AWS::Lambda::Function') continue;
    ignore(resource.Type);
  }
  if (ignored.size > 0) {
    const groups = [...ignored].sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b));
    notices.push(`ignored: ${groups.map(([kind, count]) => `${count} ${kind}`).join(', ')}`);
  }

  const config: EddyConfig = {
    ...localSettings(template),
    tables,
    functions,
    ...(archive === undefined ? {} : { archive }),
  };
  const kind = transformsOf(template.Transform).includes(SAM_TRANSFORM)
    ? 'SAM template'
    : 'CloudFormation template';
  return { config, kind, notices, provenance };
}

function isDestination(
  resolver: TemplateResolver,
  logicalId: string,
  destinations: ReadonlySet<string>,
): boolean {
  const arn = resolver.resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] }, ['Resources', logicalId]);
  return typeof arn === 'string' && destinations.has(arn);
}

/** The template's sections, checked enough that reading them cannot go wrong. */
function checkSections(input: unknown, fail: (path: TemplatePath, reason: string) => never): CfnTemplate {
  if (!isObject(input)) return fail([], 'a template is a map (AWSTemplateFormatVersion, Resources...)');
  for (const section of [
    'Parameters',
    'Mappings',
    'Conditions',
    'Resources',
    'Outputs',
    'Globals',
    'Metadata',
  ]) {
    if (input[section] !== undefined && input[section] !== null && !isObject(input[section]))
      fail([section], `${section} must be a map`);
  }
  const resources = (input.Resources ?? {}) as Record<string, unknown>;
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (!isObject(resource) || typeof resource.Type !== 'string')
      fail(['Resources', logicalId], 'a resource is a map with a Type');
    if (
      (resource as Record<string, unknown>).Properties !== undefined &&
      !isObject((resource as Record<string, unknown>).Properties)
    )
      fail(['Resources', logicalId, 'Properties'], 'Properties must be a map');
  }
  return input as CfnTemplate;
}

/** Overrides must name parameters of the template (CloudFormation refuses others too). */
function checkParameters(template: CfnTemplate, options: TemplateStackOptions): void {
  const declared = Object.keys(template.Parameters ?? {});
  const unknown = Object.keys(options.parameters).filter((name) => !declared.includes(name));
  if (unknown.length > 0)
    options.fail(
      ['Parameters'],
      `--parameter-overrides names ${unknown.join(', ')}, which the template does not declare (Parameters: ${declared.join(', ') || 'none'})`,
    );
}

function transformsOf(transform: unknown): string[] {
  if (typeof transform === 'string') return [transform];
  if (Array.isArray(transform)) return transform.filter((item): item is string => typeof item === 'string');
  return [];
}

function localSettings(template: CfnTemplate): Partial<EddyConfig> {
  const metadata = (template as { Metadata?: unknown }).Metadata;
  const local = isObject(metadata) && isObject(metadata.Eddy) ? metadata.Eddy.Local : undefined;
  if (!isObject(local)) return {};
  return Object.fromEntries(
    LOCAL_SETTINGS.filter((key) => local[key] !== undefined).map((key) => [key, local[key]]),
  );
}
