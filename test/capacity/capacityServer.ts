import { CreateTableCommand, DynamoDBClient, type OnDemandThroughput } from '@aws-sdk/client-dynamodb';
import type { RetryErrorInfo } from '@smithy/types';
import { VirtualClock } from '../../core/clock.js';
import { Engine, type EngineOptions } from '../../core/engine.js';
import type { CapacityOptions } from '../../core/throttling/capacityGovernor.js';
import { EddyServer } from '../../infra/host/server.js';
import { virtualClockRetries } from '../../infra/testing/virtualRetries.js';

/**
 * eddy on loopback with capacity enforced, on a virtual clock, and two real SDK v3 clients: one
 * that never retries (every throttle shows) and one with the SDK's standard retries backing off
 * on the virtual clock (each retry recorded).
 */
export interface CapacityServer {
  readonly clock: VirtualClock;
  readonly engine: Engine;
  readonly once: DynamoDBClient;
  readonly retrying: DynamoDBClient;
  readonly retries: { delayMs: number; error: string }[];
  close(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'AKIDEDDYTEST', secretAccessKey: 'eddy-test-secret' };

export async function startCapacityServer(
  capacity: CapacityOptions = { mode: 'enforce' },
  engineOptions: Omit<EngineOptions, 'clock' | 'capacity'> = {},
): Promise<CapacityServer> {
  const clock = new VirtualClock();
  const engine = new Engine({ ...engineOptions, clock, capacity });
  const server = new EddyServer({ engine, port: 0 });
  const { url } = await server.listen();
  const retries: { delayMs: number; error: string }[] = [];
  const onRetry = (delayMs: number, info: RetryErrorInfo) =>
    retries.push({ delayMs, error: (info.error as Error | undefined)?.name ?? info.errorType });
  const once = new DynamoDBClient({
    endpoint: url,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    maxAttempts: 1,
  });
  const retrying = new DynamoDBClient({
    endpoint: url,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    retryStrategy: virtualClockRetries(clock, { onRetry }),
  });
  return {
    clock,
    engine,
    once,
    retrying,
    retries,
    async close() {
      once.destroy();
      retrying.destroy();
      await server.close();
    },
  };
}

/** A string attribute that makes an item `{ pk: { S: key }, data: { S: ... } }` exactly `bytes` long. */
export function itemOfSize(key: string, bytes: number) {
  // Size = attribute names + values in UTF-8 (docs/dynamodb.md §4.3.1): 'pk' + key + 'data' + data.
  const data = 'x'.repeat(bytes - 2 - key.length - 4);
  return { pk: { S: key }, data: { S: data } };
}

/** Runs `send` and returns what it threw (fails when it does not throw). */
export async function rejection(send: Promise<unknown>): Promise<Record<string, unknown> & Error> {
  try {
    await send;
  } catch (error) {
    return error as Record<string, unknown> & Error;
  }
  throw new Error('expected the call to be rejected');
}

/**
 * CreateTable for a table keyed by `pk` (a string): provisioned with `[read, write]` units, or on
 * demand with the maximums given (`{ onDemand: {} }` for none).
 */
export function pkTable(
  tableName: string,
  capacity: readonly [number, number] | { onDemand: OnDemandThroughput },
): CreateTableCommand {
  return new CreateTableCommand({
    TableName: tableName,
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    ...('onDemand' in capacity
      ? {
          BillingMode: 'PAY_PER_REQUEST',
          ...(Object.keys(capacity.onDemand).length > 0 ? { OnDemandThroughput: capacity.onDemand } : {}),
        }
      : { ProvisionedThroughput: { ReadCapacityUnits: capacity[0], WriteCapacityUnits: capacity[1] } }),
  });
}

/**
 * CreateTable for a provisioned table keyed by `pk` with one GSI on a string attribute
 * (projection ALL unless given): the shape the capacity tests throttle tables and indexes on.
 */
export function tableWithIndex(
  tableName: string,
  [read, write]: readonly [number, number],
  index: {
    name: string;
    attribute: string;
    capacity: readonly [number, number];
    projection?: 'ALL' | 'KEYS_ONLY';
  },
): CreateTableCommand {
  return new CreateTableCommand({
    TableName: tableName,
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: index.attribute, AttributeType: 'S' },
    ],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    ProvisionedThroughput: { ReadCapacityUnits: read, WriteCapacityUnits: write },
    GlobalSecondaryIndexes: [
      {
        IndexName: index.name,
        KeySchema: [{ AttributeName: index.attribute, KeyType: 'HASH' }],
        Projection: { ProjectionType: index.projection ?? 'ALL' },
        ProvisionedThroughput: {
          ReadCapacityUnits: index.capacity[0],
          WriteCapacityUnits: index.capacity[1],
        },
      },
    ],
  });
}
