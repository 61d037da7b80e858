import { isDeepStrictEqual } from 'node:util';
import { bindingsOf, type FunctionBinding, runsLocally, type StreamBinding } from '../bindings.js';
import type { EddyConfig, TableConfig } from '../config.js';
import { provisionTables } from '../host/provision.js';
import type { LocalStack } from './localStack.js';
import type { ProjectFunctions } from './projectFunctions.js';

/**
 * `eddy serve --watch` on a template (or config): the stack file changed, so the running stack is
 * brought to the new definition without a restart, and without losing data
 * (docs/templates.md §6):
 * - a new table is created; a table no longer declared is kept with its items; a table's stream
 *   and TTL settings are applied (other changes to a table need a restart, and say so);
 * - a new function starts; a removed one stops (its mappings are deleted, its schedules stop);
 * - a function whose code settings changed (handler, timeout, memory, environment...) is defined
 *   again, as UpdateFunctionConfiguration would, its mappings running on;
 * - a stream binding whose settings changed is updated as UpdateEventSourceMapping does: the new
 *   settings apply from where the mapping stopped, nothing is read twice or skipped; a binding to a
 *   new table starts from its StartingPosition; one that is gone is deleted;
 * - changed schedules start again at their new rate.
 *
 * @returns one line per change, for the console.
 * @throws BindingError (or a table's TableSetupError) when the new definition cannot run; what was
 *   applied before the error stays.
 */
export interface ReconcileHooks {
  /** A function was added (its handler now needs watching) or removed. */
  readonly added?: (binding: FunctionBinding) => void;
  readonly removed?: (functionName: string) => void;
}

/** CreateEventSourceMapping's defaults: what a setting returns to when the template drops it. */
const MAPPING_DEFAULTS: Readonly<Record<string, unknown>> = {
  BatchSize: 100,
  MaximumBatchingWindowInSeconds: 0,
  FilterCriteria: { Filters: [] },
  MaximumRetryAttempts: -1,
  MaximumRecordAgeInSeconds: -1,
  BisectBatchOnFunctionError: false,
  FunctionResponseTypes: [],
  ParallelizationFactor: 1,
  TumblingWindowInSeconds: 0,
  DestinationConfig: { OnFailure: {} },
  Enabled: true,
};

export async function reconcileStack(
  stack: LocalStack,
  next: EddyConfig,
  baseDirectory: string,
  hooks: ReconcileHooks = {},
): Promise<string[]> {
  const lines: string[] = [];
  const project = stack.projectFunctions;
  // Everything that can refuse the new definition is checked before anything changes.
  const nextBindings = bindingsOf(next, baseDirectory);
  const previous = new Map(project.bindings.map((binding) => [binding.functionName, binding]));
  const rebuilt = nextBindings.filter((binding) => {
    const old = previous.get(binding.functionName);
    return old === undefined || !isDeepStrictEqual(codeOf(old), codeOf(binding));
  });
  await project.buildFunctions(rebuilt);

  // The project's bindings to a table whose stream is replaced are deleted first, then made
  // again on the new stream below (rather than following it with their old settings).
  const changedStreams = reconcileTables(stack, next, lines, (table) => {
    for (const binding of previous.values())
      if (binding.streams.some((stream) => stream.table === table))
        project.unbindStream(binding.functionName, table);
  });

  const nextNames = new Set(nextBindings.map((binding) => binding.functionName));
  for (const name of previous.keys()) {
    if (nextNames.has(name)) continue;
    project.removeFunction(name);
    hooks.removed?.(name);
    lines.push(`- function ${name} stopped`);
  }
  for (const binding of nextBindings) {
    const old = previous.get(binding.functionName);
    if (old === undefined) {
      await project.startFunction(binding);
      hooks.added?.(binding);
      lines.push(`+ function ${binding.functionName}`);
      continue;
    }
    reconcileFunction(project, old, binding, changedStreams, lines);
  }
  project.adopt(nextBindings);
  stack.config = next;
  return lines;
}

/** Creates new tables and applies stream and TTL changes; returns the tables whose stream changed. */
function reconcileTables(
  stack: LocalStack,
  next: EddyConfig,
  lines: string[],
  beforeStreamChange: (table: string) => void,
): Set<string> {
  const { engine } = stack;
  const context = { accountId: engine.defaultAccountId, region: engine.defaultRegion };
  const current = new Map((stack.config.tables ?? []).map((table) => [table.TableName, table]));
  const held = engine.region().tables;
  const added = (next.tables ?? []).filter(
    (table) => !current.has(table.TableName) && !held.has(table.TableName ?? ''),
  );
  provisionTables(engine, added, context, { logger: stack.logger });
  for (const table of added) lines.push(`+ table ${table.TableName}`);
  const nextNames = new Set((next.tables ?? []).map((table) => table.TableName));
  for (const name of current.keys()) {
    if (!nextNames.has(name)) lines.push(`- table ${name} is no longer declared: kept, with its items`);
  }
  const changedStreams = new Set<string>();
  for (const table of next.tables ?? []) {
    const old = current.get(table.TableName);
    if (old === undefined || isDeepStrictEqual(old, table)) continue;
    const name = table.TableName!;
    const { StreamSpecification: oldStream, TimeToLiveSpecification: oldTtl, ...oldRest } = old;
    const { StreamSpecification: newStream, TimeToLiveSpecification: newTtl, ...newRest } = table;
    if (!isDeepStrictEqual(streamOf(oldStream), streamOf(newStream))) {
      beforeStreamChange(name);
      // A stream's view type cannot change in place: it is turned off, then on (a new stream).
      if (streamOf(oldStream) !== undefined)
        engine.execute(
          'UpdateTable',
          { TableName: name, StreamSpecification: { StreamEnabled: false } },
          context,
        );
      if (streamOf(newStream) !== undefined)
        engine.execute('UpdateTable', { TableName: name, StreamSpecification: newStream }, context);
      changedStreams.add(name);
      lines.push(`~ table ${name}: stream ${streamOf(newStream) ?? 'off'}`);
    }
    if (!isDeepStrictEqual(oldTtl, newTtl)) {
      const ttl = newTtl ?? (oldTtl === undefined ? undefined : { ...oldTtl, Enabled: false });
      if (ttl !== undefined)
        engine.execute('UpdateTimeToLive', { TableName: name, TimeToLiveSpecification: ttl }, context);
      lines.push(`~ table ${name}: TTL ${ttl?.Enabled ? `on ${ttl.AttributeName}` : 'off'}`);
    }
    if (!isDeepStrictEqual(oldRest, newRest)) {
      const keys = Object.keys({ ...oldRest, ...newRest }).filter(
        (key) =>
          !isDeepStrictEqual(oldRest[key as keyof typeof oldRest], newRest[key as keyof typeof newRest]),
      );
      lines.push(
        `! table ${name}: ${keys.join(', ')} changed, not applied (restart eddy to recreate the table)`,
      );
    }
  }
  return changedStreams;
}

function streamOf(specification: TableConfig['StreamSpecification']): string | undefined {
  return specification?.StreamEnabled ? (specification.StreamViewType ?? 'NEW_AND_OLD_IMAGES') : undefined;
}

function reconcileFunction(
  project: ProjectFunctions,
  old: FunctionBinding,
  binding: FunctionBinding,
  changedStreams: ReadonlySet<string>,
  lines: string[],
): void {
  const name = binding.functionName;
  if (!isDeepStrictEqual(codeOf(old), codeOf(binding))) {
    project.defineProjectFunction(binding);
    lines.push(`~ function ${name}: settings updated`);
  }
  // A function that starts or stops running here (its runtime changed) has its mappings made
  // again, enabled or paused.
  const rebind = (table: string) => changedStreams.has(table) || runsLocally(old) !== runsLocally(binding);
  const oldStreams = new Map(old.streams.map((stream) => [stream.table, stream]));
  const newStreams = new Map(binding.streams.map((stream) => [stream.table, stream]));
  for (const table of oldStreams.keys()) {
    if (newStreams.has(table) && !rebind(table)) continue;
    project.unbindStream(name, table);
    if (!newStreams.has(table)) lines.push(`- ${name} ← ${table} stream`);
  }
  for (const [table, stream] of newStreams) {
    const before = oldStreams.get(table);
    if (before === undefined || rebind(table)) {
      project.bindStream(binding, stream);
      lines.push(`+ ${name} ← ${table} stream`);
    } else if (!isDeepStrictEqual(before.settings, stream.settings)) {
      const changes = settingChanges(before, stream);
      project.updateStream(binding, stream, changes);
      lines.push(
        `~ ${name} ← ${table} stream: ${Object.keys(changes).sort().join(', ')} (from where it stopped)`,
      );
    }
  }
  if (!isDeepStrictEqual(old.schedules, binding.schedules) || runsLocally(old) !== runsLocally(binding)) {
    project.startSchedules(binding);
    lines.push(
      `~ ${name}: ${binding.schedules.map((schedule) => schedule.expression).join(', ') || 'no schedule'}`,
    );
  }
}

/** The settings to send to UpdateEventSourceMapping: changed ones, and dropped ones back to their defaults. */
function settingChanges(before: StreamBinding, after: StreamBinding): Record<string, unknown> {
  const old = before.settings as Record<string, unknown>;
  const now = after.settings as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
    // StartingPosition applies to a new mapping only; UpdateEventSourceMapping does not take it.
    if (key === 'StartingPosition' || isDeepStrictEqual(old[key], now[key])) continue;
    changes[key] = now[key] ?? MAPPING_DEFAULTS[key];
  }
  return changes;
}

/** What defines a function's code and its run: a change means defining it again. */
function codeOf(binding: FunctionBinding) {
  const { streams: _streams, schedules: _schedules, ...code } = binding;
  return code;
}
