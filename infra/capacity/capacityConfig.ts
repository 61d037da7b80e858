import type { Engine } from '../../core/engine.js';
import type { CapacityOptions } from '../../core/throttling/capacityGovernor.js';
import type { CapacityConfig } from '../config.js';

const CAPACITY_KEYS = ['mode', 'tables', 'burstSeconds', 'faults'];
const FAULT_KEYS = ['table', 'fault', 'times'];

/**
 * Checks the config's `capacity` block (docs/capacity.md §1).
 * @param fail throws a ConfigError at `path` with `reason`.
 */
export function checkCapacityConfig(value: unknown, fail: (path: string, reason: string) => never): void {
  if (!isPlainObject(value)) fail('capacity', 'must be an object');
  const settings = value as Record<string, unknown>;
  for (const key of Object.keys(settings))
    if (!CAPACITY_KEYS.includes(key))
      fail(`capacity.${key}`, `is not a setting (use ${CAPACITY_KEYS.join(', ')})`);
  if (settings.mode !== undefined && settings.mode !== 'off' && settings.mode !== 'enforce')
    fail('capacity.mode', "must be 'enforce' or 'off'");
  if (
    settings.tables !== undefined &&
    (!Array.isArray(settings.tables) || settings.tables.some((name) => typeof name !== 'string'))
  )
    fail('capacity.tables', 'must be a list of table names');
  const burst = settings.burstSeconds;
  if (burst !== undefined && (typeof burst !== 'number' || !Number.isFinite(burst) || burst < 0))
    fail('capacity.burstSeconds', 'must be a number of seconds, 0 or more');
  if (settings.faults === undefined) return;
  if (!Array.isArray(settings.faults)) fail('capacity.faults', 'must be an array');
  for (const [index, fault] of (settings.faults as unknown[]).entries()) {
    const path = `capacity.faults[${index}]`;
    if (!isPlainObject(fault)) {
      fail(path, 'must be an object');
      continue;
    }
    for (const key of Object.keys(fault))
      if (!FAULT_KEYS.includes(key))
        fail(`${path}.${key}`, `is not a setting (use ${FAULT_KEYS.join(', ')})`);
    if (typeof fault.table !== 'string' || fault.table === '') fail(`${path}.table`, 'must be a table name');
    if (fault.fault !== 'throttle' && fault.fault !== 'InternalServerError')
      fail(`${path}.fault`, "must be 'throttle' or 'InternalServerError'");
    if (fault.times !== undefined && (!Number.isInteger(fault.times) || (fault.times as number) < 1))
      fail(`${path}.times`, 'must be a positive integer');
  }
}

/** The engine's capacity options from the config's block, with `--capacity` winning for the mode. */
export function capacityOptions(
  config: CapacityConfig | undefined,
  mode?: 'off' | 'enforce',
): CapacityOptions | undefined {
  if (config === undefined && mode === undefined) return undefined;
  const { faults: _, ...options } = config ?? {};
  return mode === undefined ? options : { ...options, mode };
}

/** Injects the config's faults (at start, and again on the test kit's reset). */
export function injectConfiguredFaults(engine: Engine, config: CapacityConfig | undefined): void {
  for (const fault of config?.faults ?? [])
    engine.capacity.injectFault(fault.table, fault.fault, fault.times ?? 1);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
