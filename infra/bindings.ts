import { isAbsolute, resolve } from 'node:path';
import { parseDuration } from '../core/clock.js';
import type { EddyConfig, FunctionBuildConfig, StreamBindingConfig } from './config.js';
import { parseScheduleExpression, ScheduleExpressionError } from './schedules/scheduleExpression.js';

/**
 * Bindings: which function listens to which stream or schedule, with which settings
 * (docs/architecture.md §8). The config is normalised here once; the local stack runs these bindings and
 * `eddy synth` writes them into the deployment template, so both always agree.
 */
export interface FunctionBinding {
  readonly functionName: string;
  /** Absolute path of the handler module. */
  readonly handlerPath: string;
  readonly exportName: string;
  readonly timeout: number;
  readonly memorySize: number;
  readonly environment: Readonly<Record<string, string>>;
  readonly isolation: 'in-process' | 'worker';
  readonly streams: readonly StreamBinding[];
  readonly schedules: readonly ScheduleBinding[];
  /** The Lambda runtime, when the config names one (`runsLocally` tells whether eddy runs it). */
  readonly runtime?: string;
  /** esbuild settings the handler is bundled with before it runs (SAM's BuildProperties). */
  readonly build?: FunctionBuildConfig;
}

/**
 * Whether eddy runs a function: Node.js runtimes only (`nodejs*`, or none named). Others are kept
 * with their bindings, which stay disabled (docs/templates.md §3.5).
 */
export function runsLocally(binding: Pick<FunctionBinding, 'runtime'>): boolean {
  return binding.runtime === undefined || /^nodejs/.test(binding.runtime);
}

export interface StreamBinding {
  readonly functionName: string;
  readonly table: string;
  /** CreateEventSourceMapping settings (without EventSourceArn and FunctionName). */
  readonly settings: Omit<StreamBindingConfig, 'table'>;
}

export interface ScheduleBinding {
  readonly functionName: string;
  /** The rate, ms; undefined for a `cron(...)` or `at(...)` schedule. */
  readonly rateMs: number | undefined;
  /**
   * The EventBridge schedule expression: `rate(5 minutes)` for a rate (of the same rate), or the
   * `cron(...)` / `at(...)` expression as given.
   */
  readonly expression: string;
  /** The time zone a cron or at expression reads in (default UTC). */
  readonly timezone?: string;
  readonly enabled: boolean;
  /** The target's `Input` (JSON text): the event instead of the Scheduled Event. */
  readonly input?: string;
}

export class BindingError extends Error {
  override readonly name = 'BindingError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

const RATE_EXPRESSION = /^rate\(\s*(\d+)\s+(minute|minutes|hour|hours|day|days)\s*\)$/;
const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** Parses a schedule rate: `rate(5 minutes)`, `'5m'`, or milliseconds. */
export function parseRate(rate: string | number, path: string): { rateMs: number; expression: string } {
  let rateMs: number;
  const match = typeof rate === 'string' ? RATE_EXPRESSION.exec(rate.trim()) : null;
  if (match) {
    const unit = match[2]!.replace(/s$/, '') as keyof typeof UNIT_MS;
    rateMs = Number(match[1]) * UNIT_MS[unit];
  } else {
    try {
      rateMs = parseDuration(rate);
    } catch {
      throw new BindingError(
        path,
        `'${rate}' is not a rate: use '5m', '1h', milliseconds or 'rate(5 minutes)'`,
      );
    }
  }
  if (!(rateMs > 0)) throw new BindingError(path, 'a rate must be positive');
  return { rateMs, expression: rateExpression(rateMs) };
}

/** A rate, or a `cron(...)` / `at(...)` expression with its time zone (docs/templates.md §3.6). */
function scheduleTiming(
  rate: string | number,
  timezone: string | undefined,
  path: string,
): Pick<ScheduleBinding, 'rateMs' | 'expression' | 'timezone'> {
  if (typeof rate === 'string' && /^\s*(cron|at)\(/.test(rate)) {
    try {
      // Checked here, run by the stack (`scheduleTimingOf`).
      parseScheduleExpression(rate, timezone);
      return {
        rateMs: undefined,
        expression: rate.trim(),
        ...(timezone === undefined ? {} : { timezone }),
      };
    } catch (error) {
      if (error instanceof ScheduleExpressionError) throw new BindingError(`${path}.rate`, error.message);
      throw error;
    }
  }
  if (timezone !== undefined)
    throw new BindingError(`${path}.Timezone`, 'applies to cron(...) and at(...) schedules only');
  return parseRate(rate, `${path}.rate`);
}

/** EventBridge refuses a target whose Input is not JSON text (API_Target: "Valid JSON text"). */
function checkInput(input: unknown, path: string): void {
  if (typeof input !== 'string') throw new BindingError(path, 'must be JSON text');
  try {
    JSON.parse(input);
  } catch {
    throw new BindingError(path, 'must be valid JSON text');
  }
}

/** EventBridge takes whole minutes at the least: shorter local rates deploy as `rate(1 minute)`. */
function rateExpression(rateMs: number): string {
  const minutes = Math.max(1, Math.round(rateMs / 60_000));
  if (minutes % 1440 === 0) return minutes === 1440 ? 'rate(1 day)' : `rate(${minutes / 1440} days)`;
  if (minutes % 60 === 0) return minutes === 60 ? 'rate(1 hour)' : `rate(${minutes / 60} hours)`;
  return minutes === 1 ? 'rate(1 minute)' : `rate(${minutes} minutes)`;
}

/** The bindings of a config; relative handler paths start from `baseDirectory`. */
export function bindingsOf(config: EddyConfig, baseDirectory: string): FunctionBinding[] {
  const tables = new Set((config.tables ?? []).map((table) => table.TableName));
  return Object.entries(config.functions ?? {}).map(([functionName, fn]) => {
    const path = `functions.${functionName}`;
    if (!/^[a-zA-Z0-9-_]{1,64}$/.test(functionName)) {
      throw new BindingError(path, 'a function name is 1-64 letters, digits, - and _ (Lambda FunctionName)');
    }
    if (typeof fn.handler !== 'string' || fn.handler === '')
      throw new BindingError(`${path}.handler`, 'is required');
    const streams: StreamBinding[] = [];
    const schedules: ScheduleBinding[] = [];
    (fn.events ?? []).forEach((event, index) => {
      const eventPath = `${path}.events[${index}]`;
      if ('stream' in event) {
        const { table, ...settings } = event.stream;
        if (!tables.has(table))
          throw new BindingError(`${eventPath}.stream.table`, `no table '${table}' in tables`);
        streams.push({ functionName, table, settings });
      } else if ('schedule' in event) {
        const input = event.schedule.Input;
        if (input !== undefined) checkInput(input, `${eventPath}.schedule.Input`);
        schedules.push({
          functionName,
          ...scheduleTiming(event.schedule.rate, event.schedule.Timezone, `${eventPath}.schedule`),
          enabled: event.schedule.Enabled !== false,
          ...(input === undefined ? {} : { input }),
        });
      } else {
        throw new BindingError(eventPath, 'must be { stream: {...} } or { schedule: {...} }');
      }
    });
    return {
      functionName,
      handlerPath: isAbsolute(fn.handler) ? fn.handler : resolve(baseDirectory, fn.handler),
      exportName: fn.exportName ?? 'handler',
      timeout: fn.timeout ?? 3,
      memorySize: fn.memorySize ?? 128,
      environment: fn.environment ?? {},
      isolation: fn.isolation ?? 'in-process',
      streams,
      schedules,
      ...(fn.runtime === undefined ? {} : { runtime: fn.runtime }),
      ...(fn.build === undefined ? {} : { build: fn.build }),
    };
  });
}
