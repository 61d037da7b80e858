import { Engine, type EngineOptions } from '../../../core/engine.js';
import { DynamoDbError } from '../../../core/errors/index.js';
import { clearStatementCache } from '../../../core/partiql/cache.js';

/** Fixtures for the PartiQL suites: an engine with the documentation's tables. */

export type Output = Record<string, unknown> & { Items?: Record<string, unknown>[] };

export function engineWith(tables: Record<string, unknown>[], options: EngineOptions = {}): Engine {
  clearStatementCache();
  const engine = new Engine(options);
  for (const table of tables) engine.execute('CreateTable', table);
  return engine;
}

/** `Music`: Artist + SongTitle, both strings (the PartiQL reference pages' table). */
export const MUSIC = {
  TableName: 'Music',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: 'Artist', AttributeType: 'S' },
    { AttributeName: 'SongTitle', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'Artist', KeyType: 'HASH' },
    { AttributeName: 'SongTitle', KeyType: 'RANGE' },
  ],
};

/** `Orders`: a number partition key OrderID (ql-reference.select.html). */
export const ORDERS = {
  TableName: 'Orders',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'OrderID', AttributeType: 'N' }],
  KeySchema: [{ AttributeName: 'OrderID', KeyType: 'HASH' }],
};

/** `WatchList`: CustomerID + MovieID (ql-reference.select.html). */
export const WATCH_LIST = {
  TableName: 'WatchList',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: 'CustomerID', AttributeType: 'S' },
    { AttributeName: 'MovieID', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'CustomerID', KeyType: 'HASH' },
    { AttributeName: 'MovieID', KeyType: 'RANGE' },
  ],
};

/** Runs one statement and returns its output. */
export function run(engine: Engine, Statement: string, extra: Record<string, unknown> = {}): Output {
  return engine.execute('ExecuteStatement', { Statement, ...extra }) as Output;
}

/** The error a statement answers: its name and message. */
export function failure(engine: Engine, Statement: string, extra: Record<string, unknown> = {}) {
  try {
    engine.execute('ExecuteStatement', { Statement, ...extra });
  } catch (error) {
    if (error instanceof DynamoDbError) return { name: error.name, message: error.message };
    throw error;
  }
  throw new Error(`expected ${Statement} to fail`);
}

/** The items a statement answers, every page followed. */
export function selectAll(engine: Engine, Statement: string, extra: Record<string, unknown> = {}) {
  const items: Record<string, unknown>[] = [];
  let NextToken: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const output = run(engine, Statement, { ...extra, ...(NextToken ? { NextToken } : {}) });
    items.push(...(output.Items ?? []));
    NextToken = output.NextToken as string | undefined;
    if (NextToken === undefined) return items;
  }
  throw new Error('too many pages');
}
