import type { ChangeEvent } from '../../../core/changeEvent.js';
import { VirtualClock } from '../../../core/clock.js';
import { Engine, type EngineOptions } from '../../../core/engine.js';
import type { Table } from '../../../core/store/table.js';
import { startTtlExpirer, type TtlExpirer } from '../../../infra/schedules/index.js';

/** TTL test helpers: an engine on a virtual clock, table factories, and the ttl-expirer as scheduled. */

/** 2026-01-01T00:00:00Z, the virtual clock's default start. */
export const START_MS = Date.UTC(2026, 0, 1);
export const START_S = START_MS / 1000;

export function ttlEngine(options: EngineOptions = {}): { engine: Engine; clock: VirtualClock } {
  const clock = new VirtualClock(START_MS);
  return { engine: new Engine({ clock, ...options }), clock };
}

/** Creates an on-demand table: `pk` (S) hash key, and `sk` when `range` gives its type. */
export function createTable(
  engine: Engine,
  name: string,
  options: { hash?: [string, 'S' | 'N' | 'B']; range?: [string, 'S' | 'N' | 'B'] } = {},
): Table {
  const [hashName, hashType] = options.hash ?? ['pk', 'S'];
  const definitions = [{ AttributeName: hashName, AttributeType: hashType }];
  const keySchema = [{ AttributeName: hashName, KeyType: 'HASH' }];
  if (options.range) {
    definitions.push({ AttributeName: options.range[0], AttributeType: options.range[1] });
    keySchema.push({ AttributeName: options.range[0], KeyType: 'RANGE' });
  }
  engine.execute('CreateTable', {
    TableName: name,
    AttributeDefinitions: definitions,
    KeySchema: keySchema,
    BillingMode: 'PAY_PER_REQUEST',
  });
  return engine.region().tables.get(name)!;
}

export const n = (value: number | string) => ({ N: String(value) });
export const s = (value: string) => ({ S: value });

export function enableTtl(engine: Engine, table: string, attributeName = 'ttl') {
  return engine.execute('UpdateTimeToLive', {
    TableName: table,
    TimeToLiveSpecification: { AttributeName: attributeName, Enabled: true },
  });
}

export function disableTtl(engine: Engine, table: string, attributeName = 'ttl') {
  return engine.execute('UpdateTimeToLive', {
    TableName: table,
    TimeToLiveSpecification: { AttributeName: attributeName, Enabled: false },
  });
}

export function describeTtl(engine: Engine, table: string) {
  return engine.execute('DescribeTimeToLive', { TableName: table });
}

export function put(engine: Engine, table: string, item: Record<string, unknown>) {
  return engine.execute('PutItem', { TableName: table, Item: item });
}

export function get(engine: Engine, table: string, key: Record<string, unknown>) {
  return engine.execute('GetItem', { TableName: table, Key: key }).Item as
    | Record<string, unknown>
    | undefined;
}

/** The `pk` S values of a table's items, sorted. */
export function keysIn(engine: Engine, table: string, name = 'pk'): string[] {
  const items = engine.execute('Scan', { TableName: table }).Items as Record<
    string,
    { S?: string; N?: string }
  >[];
  return items.map((item) => item[name]!.S ?? item[name]!.N!).sort();
}

const expirers: TtlExpirer[] = [];

/** Starts the ttl-expirer on `engine` as the host schedules it; `stopExpirers` stops it. */
export function startExpirer(
  engine: Engine,
  options: Parameters<typeof startTtlExpirer>[1] = {},
): TtlExpirer {
  const started = startTtlExpirer(engine, options);
  expirers.push(started);
  return started;
}

/** Stops every expirer `startExpirer` started (for afterEach). */
export function stopExpirers(): void {
  for (const expirer of expirers.splice(0)) expirer.stop();
}

/** The change events `engine` commits from now on. */
export function recordEvents(engine: Engine): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  engine.onCommit((event) => events.push(event));
  return events;
}
