import type { DynamoDBRecord } from 'aws-lambda';
import type { Observable, Subscription } from 'rxjs';
import { TTL_PRINCIPAL } from '../../core/changeEvent.js';
import { flushMicrotasks, VirtualClock } from '../../core/clock.js';
import { Engine, type EngineOptions } from '../../core/engine.js';
import type { AttributeMap } from '../../core/model/attributeValue.js';
import type { StreamViewType } from '../../core/store/table.js';
import { extractKey } from '../../core/validations/keys.js';
import { ChangeLog, type ChangeLogOptions } from '../../streams/changeLog.js';
import { StreamsService } from '../../streams/streamsApi/streamsService.js';

/** Test fixtures for streams: an engine on a virtual clock with a change log attached. */

export const ACCOUNT = '000000000000';
export const REGION = 'us-east-1';
export const START = Date.UTC(2026, 0, 1, 12, 0, 0, 0);

export interface StreamsFixture {
  readonly clock: VirtualClock;
  readonly engine: Engine;
  readonly changeLog: ChangeLog;
  readonly streams: StreamsService;
}

export function fixture(
  options: { engine?: EngineOptions; changeLog?: ChangeLogOptions } = {},
): StreamsFixture {
  const clock = new VirtualClock(START);
  const engine = new Engine({ clock, ...options.engine });
  const changeLog = ChangeLog.attach(engine, options.changeLog);
  return { clock, engine, changeLog, streams: new StreamsService(changeLog) };
}

/** CreateTable with a string hash key `pk` (and range key `sk` when asked), stream per `viewType`. */
export function createTable(
  engine: Engine,
  name: string,
  viewType: StreamViewType | undefined,
  options: { range?: boolean; hashType?: 'S' | 'N' } = {},
): Record<string, unknown> {
  const definitions = [{ AttributeName: 'pk', AttributeType: options.hashType ?? 'S' }];
  const keySchema = [{ AttributeName: 'pk', KeyType: 'HASH' }];
  if (options.range) {
    definitions.push({ AttributeName: 'sk', AttributeType: 'S' });
    keySchema.push({ AttributeName: 'sk', KeyType: 'RANGE' });
  }
  const input: Record<string, unknown> = {
    TableName: name,
    AttributeDefinitions: definitions,
    KeySchema: keySchema,
    BillingMode: 'PAY_PER_REQUEST',
  };
  if (viewType !== undefined) input.StreamSpecification = { StreamEnabled: true, StreamViewType: viewType };
  return engine.execute('CreateTable', input).TableDescription as Record<string, unknown>;
}

export function setStream(engine: Engine, table: string, viewType: StreamViewType | false): void {
  engine.execute('UpdateTable', {
    TableName: table,
    StreamSpecification:
      viewType === false ? { StreamEnabled: false } : { StreamEnabled: true, StreamViewType: viewType },
  });
}

export const put = (engine: Engine, table: string, item: Record<string, unknown>) =>
  engine.execute('PutItem', { TableName: table, Item: item });

export const del = (engine: Engine, table: string, key: Record<string, unknown>) =>
  engine.execute('DeleteItem', { TableName: table, Key: key });

export const s = (value: string) => ({ S: value });
export const n = (value: number | string) => ({ N: String(value) });

/** Lets asynchronous deliveries run until `done()` holds (at most `turns` macrotask turns). */
export async function settle(done: () => boolean = () => false, turns = 50): Promise<void> {
  for (let turn = 0; turn < turns && !done(); turn++) await flushMicrotasks();
}

/** Subscribes and collects what arrives. */
export function collect<T = DynamoDBRecord>(source: Observable<T>) {
  const values: T[] = [];
  const state: { error: unknown; complete: boolean; subscription: Subscription } = {
    error: undefined,
    complete: false,
    subscription: undefined as unknown as Subscription,
  };
  state.subscription = source.subscribe({
    next: (value) => values.push(value),
    error: (error) => {
      state.error = error;
    },
    complete: () => {
      state.complete = true;
    },
  });
  return { values, state };
}

/** CreateTable with any key schema (attribute name → type, first is the hash key). */
export function createKeyedTable(
  engine: Engine,
  name: string,
  keys: [string, 'S' | 'N' | 'B'][],
  viewType: StreamViewType,
): string {
  const description = engine.execute('CreateTable', {
    TableName: name,
    AttributeDefinitions: keys.map(([attribute, type]) => ({
      AttributeName: attribute,
      AttributeType: type,
    })),
    KeySchema: keys.map(([attribute], index) => ({
      AttributeName: attribute,
      KeyType: index === 0 ? 'HASH' : 'RANGE',
    })),
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: viewType },
  }).TableDescription as { LatestStreamArn: string };
  return description.LatestStreamArn;
}

/** Deletes an item as DynamoDB's TTL process does (principal dynamodb.amazonaws.com). */
export function ttlDelete(engine: Engine, tableName: string, key: Record<string, unknown>): void {
  const region = engine.region();
  const table = region.tables.get(tableName)!;
  const extracted = extractKey(key as AttributeMap, table.key);
  const previous = table.items.get(extracted.hashKey, extracted.rangeKey);
  engine.commit(region, table, [{ key: extracted, previous, next: undefined }], TTL_PRINCIPAL);
}

/** The current stream ARN of a table (DescribeTable's LatestStreamArn). */
export function latestStreamArn(engine: Engine, tableName: string): string {
  return (engine.execute('DescribeTable', { TableName: tableName }).Table as { LatestStreamArn: string })
    .LatestStreamArn;
}
