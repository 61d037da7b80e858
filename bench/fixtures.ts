import type { Engine } from '../core/engine.js';

/** The benches' common workload: customers of ~200 bytes of DynamoDB JSON, keyed by `pk` (S). */

/**
 * The item write `i` puts: customer `key` (default `i`), with `visits` (default `i`). `plan` and
 * `active` follow the write, so writing a customer again changes its item.
 */
export function customerItem(i: number, { key = i, visits = i }: { key?: number; visits?: number } = {}) {
  return {
    pk: { S: `user#${String(key).padStart(8, '0')}` },
    name: { S: `Customer ${key}` },
    email: { S: `customer${key}@example.com` },
    plan: { S: i % 3 === 0 ? 'pro' : 'free' },
    visits: { N: String(visits) },
    active: { BOOL: i % 2 === 0 },
    tags: { SS: ['blue', 'green'] },
  };
}

/**
 * `count` PutItem inputs over `customers` customers: the first `customers` writes insert, the rest
 * overwrite, and every write changes its item (so each one is a stream record).
 */
export function customerPuts(table: string, count: number, customers: number) {
  return Array.from({ length: count }, (_, i) => ({
    TableName: table,
    Item: customerItem(i, { key: i % customers }),
  }));
}

/**
 * Creates an on-demand customers table, with a NEW_AND_OLD_IMAGES stream when `stream` is set;
 * returns its stream ARN (undefined without a stream).
 */
export function createCustomerTable(
  engine: Engine,
  table: string,
  { stream = false } = {},
): string | undefined {
  const description = engine.execute('CreateTable', {
    TableName: table,
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
    ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } } : {}),
  }).TableDescription as { LatestStreamArn?: string };
  return description.LatestStreamArn;
}
