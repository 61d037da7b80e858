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

/**
 * CreateTable input of the GameScores table of the GSI guide: key UserId + GameTitle, and a GSI
 * on GameTitle + TopScore (GameTitleIndex, KEYS_ONLY, unless told).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html
 */
export function gameScoresTable(
  options: { tableName?: string; indexName?: string; projection?: Record<string, unknown> } = {},
) {
  return {
    TableName: options.tableName ?? 'GameScores',
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'UserId', AttributeType: 'S' },
      { AttributeName: 'GameTitle', AttributeType: 'S' },
      { AttributeName: 'TopScore', AttributeType: 'N' },
    ],
    KeySchema: [
      { AttributeName: 'UserId', KeyType: 'HASH' },
      { AttributeName: 'GameTitle', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: options.indexName ?? 'GameTitleIndex',
        KeySchema: [
          { AttributeName: 'GameTitle', KeyType: 'HASH' },
          { AttributeName: 'TopScore', KeyType: 'RANGE' },
        ],
        Projection: options.projection ?? { ProjectionType: 'KEYS_ONLY' },
      },
    ],
  };
}

// test/core/indexes imports these from here; the other suites take them from ./errors.js.
export { serialization, validation, wireError } from './errors.js';
