import { randomUUID } from 'node:crypto';
import type { Engine } from '../../core/engine.js';
import type { ScalarKeyType } from '../../core/model/attributeValue.js';
import { Table } from '../../core/store/table.js';

/**
 * Registers a table directly in an engine's region, without going through CreateTable: for tests
 * of item operations that do not exercise the control plane.
 */
export function addTable(
  engine: Engine,
  name: string,
  hash: [string, ScalarKeyType],
  range?: [string, ScalarKeyType],
): Table {
  const region = engine.region();
  const definitions = [{ AttributeName: hash[0], AttributeType: hash[1] }];
  const keySchema: { AttributeName: string; KeyType: 'HASH' | 'RANGE' }[] = [
    { AttributeName: hash[0], KeyType: 'HASH' },
  ];
  if (range) {
    definitions.push({ AttributeName: range[0], AttributeType: range[1] });
    keySchema.push({ AttributeName: range[0], KeyType: 'RANGE' });
  }
  const table = new Table({
    name,
    tableId: randomUUID(),
    arn: region.tableArn(name),
    createdAt: engine.clock.now(),
    status: 'ACTIVE',
    attributeDefinitions: definitions,
    keySchema,
    billingMode: 'PAY_PER_REQUEST',
    throughput: { readCapacityUnits: 0, writeCapacityUnits: 0, numberOfDecreasesToday: 0 },
  });
  region.tables.set(name, table);
  return table;
}

/** Runs an operation expecting a DynamoDbError; returns its wire body. */
export function wireError(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (error) {
    if (error && typeof error === 'object' && 'toWire' in error) {
      return (error as { toWire(): Record<string, unknown> }).toWire();
    }
    throw error;
  }
  throw new Error('expected the operation to fail');
}

export const validation = (message: string) => ({
  __type: 'com.amazon.coral.validate#ValidationException',
  message,
});
export const serialization = (message: string) => ({
  __type: 'com.amazon.coral.service#SerializationException',
  Message: message,
});
