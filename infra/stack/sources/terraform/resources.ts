import type { BindingConfig, FunctionConfig, StreamBindingConfig, TableConfig } from '../../../config.js';
import { tableOfStreamArn } from '../../../replay/replaySetup.js';
import { isObject } from '../cloudformation/shapes.js';
import { compact } from '../cloudformation/values.js';
import { readFunction } from './lambdaFunctions.js';
import type { Block, TerraformModule } from './module.js';
import { readTable } from './tables.js';

/**
 * The resources of a Terraform configuration that a local stack runs (docs/terraform.md §4), as
 * the eddy config shape: `aws_dynamodb_table`, `aws_lambda_function` (its code from the
 * `archive_file` sources it is zipped from), `aws_lambda_event_source_mapping` on a table's
 * stream, `aws_cloudwatch_event_rule` + `aws_cloudwatch_event_target` and `aws_scheduler_schedule`
 * on a function. Arguments are the AWS provider's:
 * https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/dynamodb_table
 * https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lambda_function
 * https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lambda_event_source_mapping
 */
export interface TerraformStack {
  readonly tables: TableConfig[];
  readonly functions: Record<string, FunctionConfig>;
  readonly notices: string[];
  /** Config path (`tables[0]`, `functions.x.events[1]`) → the block and argument it came from. */
  readonly provenance: Map<string, { module: TerraformModule; block: Block; path: (string | number)[] }>;
}

/** Resource types read here; others are listed once as ignored. */
const READ_TYPES = new Set([
  'aws_dynamodb_table',
  'aws_lambda_function',
  'aws_lambda_event_source_mapping',
  'aws_cloudwatch_event_rule',
  'aws_cloudwatch_event_target',
  'aws_scheduler_schedule',
]);
const DESTINATION_TYPES = new Set(['aws_sqs_queue', 'aws_sns_topic', 'aws_s3_bucket']);

/** `aws_lambda_event_source_mapping` arguments → CreateEventSourceMapping members. */
const MAPPING_ARGUMENTS: Readonly<Record<string, string>> = {
  batch_size: 'BatchSize',
  maximum_batching_window_in_seconds: 'MaximumBatchingWindowInSeconds',
  maximum_retry_attempts: 'MaximumRetryAttempts',
  maximum_record_age_in_seconds: 'MaximumRecordAgeInSeconds',
  parallelization_factor: 'ParallelizationFactor',
  tumbling_window_in_seconds: 'TumblingWindowInSeconds',
  bisect_batch_on_function_error: 'BisectBatchOnFunctionError',
  enabled: 'Enabled',
  starting_position: 'StartingPosition',
  function_response_types: 'FunctionResponseTypes',
};
/** Arguments that change nothing locally (or are another source's). */
const QUIET_MAPPING_ARGUMENTS = new Set([
  'event_source_arn',
  'function_name',
  'filter_criteria',
  'destination_config',
  'kms_key_arn',
  'metrics_config',
  'tags',
  'count',
  'depends_on',
  'lifecycle',
  'provider',
]);

export function readTerraformStack(root: TerraformModule, workDirectory: string): TerraformStack {
  const stack: TerraformStack = { tables: [], functions: {}, notices: [], provenance: new Map() };
  const ignored = new Map<string, number>();
  const ignore = (kind: string) => ignored.set(kind, (ignored.get(kind) ?? 0) + 1);
  const modules = root.allModules();
  const created = modules.flatMap((module) =>
    [...module.resources.values()]
      .filter((block) => module.isCreated(block))
      .map((block) => ({ module, block })),
  );
  const ofType = (type: string) => created.filter(({ block }) => block.address[1] === type);

  for (const { module, block } of ofType('aws_dynamodb_table')) {
    const table = readTable(module, block);
    if (stack.tables.some((known) => known.TableName === table.TableName))
      module.fail(block, ['name'], `a second table named '${table.TableName}'`);
    stack.provenance.set(`tables[${stack.tables.length}]`, { module, block, path: [] });
    stack.tables.push(table);
  }
  const tableNames = new Set(stack.tables.map((table) => table.TableName!));

  const events = new Map<string, BindingConfig[]>();
  const bind = (
    name: string,
    binding: BindingConfig,
    module: TerraformModule,
    block: Block,
    path: (string | number)[],
  ) => {
    const list = events.get(name) ?? [];
    stack.provenance.set(`functions.${name}.events[${list.length}]`, { module, block, path });
    list.push(binding);
    events.set(name, list);
  };
  for (const { module, block } of ofType('aws_lambda_function')) {
    const { name, config, notRunning } = readFunction(module, block, workDirectory);
    if (Object.hasOwn(stack.functions, name))
      module.fail(block, ['function_name'], `a second function named '${name}'`);
    stack.functions[name] = config;
    stack.provenance.set(`functions.${name}`, { module, block, path: [] });
    // Other runtimes show in the banner with their bindings, as not running; these have no runtime to show.
    if (notRunning !== undefined && config.runtime === 'unknown')
      stack.notices.push(`function ${name} is not run (${notRunning})`);
    else if (notRunning?.startsWith('a container image'))
      stack.notices.push(`function ${name} is not run (${notRunning})`);
  }
  const functionOf = (module: TerraformModule, block: Block, path: (string | number)[], value: unknown) => {
    const text =
      typeof value === 'string' ? value : module.fail(block, path, 'a function name or ARN is required');
    const name = /:function:([^:]+)/.exec(text)?.[1] ?? text;
    if (!Object.hasOwn(stack.functions, name))
      module.fail(
        block,
        path,
        `'${name}' is not an aws_lambda_function of the configuration (functions: ${Object.keys(stack.functions).join(', ') || 'none'})`,
      );
    return name;
  };

  const destinations = new Set<string>();
  for (const { module, block } of ofType('aws_lambda_event_source_mapping')) {
    const arn = module.evaluateAt(block, ['event_source_arn']);
    if (typeof arn !== 'string' || !/^arn:[^:]+:dynamodb:/.test(arn)) {
      ignore(
        `aws_lambda_event_source_mapping (${typeof arn === 'string' ? (arn.split(':')[2] ?? 'unknown') : 'no event_source_arn'})`,
      );
      continue;
    }
    const name = functionOf(module, block, ['function_name'], module.evaluateAt(block, ['function_name']));
    const stream = readMapping(module, block, arn, tableNames, stack.notices);
    const destination = stream.DestinationConfig?.OnFailure?.Destination;
    if (destination !== undefined) destinations.add(destination);
    bind(name, { stream }, module, block, []);
  }

  // EventBridge rules: a target names its rule by name (`rule = aws_cloudwatch_event_rule.x.name`).
  const rules = new Map(
    ofType('aws_cloudwatch_event_rule').map(({ module, block }) => [
      `${module.label}:${String(module.evaluateAt(block, ['name']) ?? block.address[2])}`,
      { module, block },
    ]),
  );
  const targeted = new Set<Block>();
  for (const { module, block } of ofType('aws_cloudwatch_event_target')) {
    const ruleName = module.evaluateAt(block, ['rule']);
    const rule = rules.get(`${module.label}:${String(ruleName)}`);
    const arn = module.evaluateAt(block, ['arn']);
    if (rule === undefined || typeof arn !== 'string' || !/:lambda:.*:function:/.test(arn)) {
      ignore('aws_cloudwatch_event_target (not a scheduled function)');
      continue;
    }
    targeted.add(rule.block);
    const expression = rule.module.evaluateAt(rule.block, ['schedule_expression']);
    if (typeof expression !== 'string') {
      ignore('aws_cloudwatch_event_rule (event pattern)');
      continue;
    }
    const state = rule.module.evaluateAt(rule.block, ['state']);
    const enabledFlag = rule.module.evaluateAt(rule.block, ['is_enabled']);
    const enabled = state !== undefined ? state === 'ENABLED' : enabledFlag !== false;
    const name = functionOf(module, block, ['arn'], arn);
    const label = rule.block.address.slice(1).join('.');
    const schedule = scheduleBinding(
      expression,
      enabled,
      module.evaluateAt(block, ['input']),
      label,
      stack.notices,
    );
    if (schedule !== undefined) bind(name, schedule, module, block, []);
  }
  for (const { block } of ofType('aws_cloudwatch_event_rule'))
    if (!targeted.has(block)) ignore('aws_cloudwatch_event_rule (no function target)');

  for (const { module, block } of ofType('aws_scheduler_schedule')) {
    const arn = module.evaluateAt(block, ['target', 0, 'arn']);
    if (typeof arn !== 'string' || !/:lambda:.*:function:/.test(arn)) {
      ignore('aws_scheduler_schedule (not a function target)');
      continue;
    }
    const name = functionOf(module, block, ['target'], arn);
    const expression = module.evaluateAt(block, ['schedule_expression']);
    const state = module.evaluateAt(block, ['state']);
    const schedule = scheduleBinding(
      typeof expression === 'string'
        ? expression
        : module.fail(block, ['schedule_expression'], 'is required'),
      state === undefined || state === 'ENABLED',
      module.evaluateAt(block, ['target', 0, 'input']),
      block.address.slice(1).join('.'),
      stack.notices,
      module.evaluateAt(block, ['schedule_expression_timezone']),
    );
    if (schedule !== undefined) bind(name, schedule, module, block, []);
  }
  for (const [name, list] of events) stack.functions[name] = { ...stack.functions[name]!, events: list };

  for (const { module, block } of created) {
    const type = block.address[1]!;
    if (READ_TYPES.has(type)) continue;
    if (DESTINATION_TYPES.has(type)) {
      const arn = module.attribute(block, 'arn');
      if (typeof arn === 'string' && destinations.has(arn)) continue;
    }
    ignore(type);
  }
  if (ignored.size > 0) {
    const groups = [...ignored].sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b));
    stack.notices.push(`ignored: ${groups.map(([kind, count]) => `${count} ${kind}`).join(', ')}`);
  }
  return stack;
}

function readMapping(
  module: TerraformModule,
  block: Block,
  arn: string,
  tables: ReadonlySet<string>,
  notices: string[],
): StreamBindingConfig {
  const get = (...path: (string | number)[]) => module.evaluateAt(block, path);
  const table = tableOfStreamArn(arn);
  if (table === undefined)
    return module.fail(
      block,
      ['event_source_arn'],
      `'${arn}' is not a DynamoDB stream ARN (aws_dynamodb_table.<name>.stream_arn)`,
    );
  if (!tables.has(table))
    return module.fail(
      block,
      ['event_source_arn'],
      `the stream of table '${table}', which is not an aws_dynamodb_table of the configuration (tables: ${[...tables].join(', ') || 'none'})`,
    );
  const settings: Record<string, unknown> = {};
  for (const [argument, member] of Object.entries(MAPPING_ARGUMENTS)) settings[member] = get(argument);
  const filters = (get('filter_criteria', 0, 'filter') as unknown[] | undefined) ?? [];
  const destination = get('destination_config', 0, 'on_failure', 0, 'destination_arn');
  const unknown = Object.keys(block.body).filter(
    (key) => !QUIET_MAPPING_ARGUMENTS.has(key) && !Object.hasOwn(MAPPING_ARGUMENTS, key),
  );
  if (unknown.length > 0)
    notices.push(`${block.address.slice(1).join('.')}: ${unknown.join(', ')} not emulated`);
  return compact({
    table,
    ...settings,
    FilterCriteria:
      filters.length > 0
        ? { Filters: filters.filter(isObject).map((filter) => ({ Pattern: String(filter.pattern) })) }
        : undefined,
    DestinationConfig:
      typeof destination === 'string' ? { OnFailure: { Destination: destination } } : undefined,
  }) as unknown as StreamBindingConfig;
}

/**
 * A schedule binding for `rate(...)`, `cron(...)` or `at(...)` (docs/templates.md §3.6), with
 * aws_scheduler_schedule's `schedule_expression_timezone`.
 */
function scheduleBinding(
  expression: string,
  enabled: boolean,
  input: unknown,
  _label: string,
  _notices: string[],
  timezone?: unknown,
): BindingConfig | undefined {
  // The target's input is the event the function gets (JSON text, jsonencode's).
  const text =
    input === undefined || input === null || typeof input === 'string' ? input : JSON.stringify(input);
  return {
    schedule: {
      rate: expression.trim(),
      Enabled: enabled,
      ...(typeof timezone === 'string' ? { Timezone: timezone } : {}),
      ...(typeof text === 'string' ? { Input: text } : {}),
    },
  };
}
