import { GlobalTableNotFoundException, ValidationException } from '../errors/index.js';
import { defineOperation, type OperationDefinition } from '../operation.js';
import {
  createGlobalTableShape,
  type GlobalTableNameInput,
  globalTableNameShape,
  listGlobalTablesShape,
  updateGlobalTableSettingsShape,
  updateGlobalTableShape,
} from '../validations/legacyGlobalTables.js';
import { INVALID } from '../validations/tableSchema.js';

/**
 * The legacy global tables operations (version 2017.11.29), answered as DynamoDB answers them
 * today (docs/global-tables.md §6): no new legacy global table can be made, so CreateGlobalTable
 * is refused, the others find no global table (a 2019.11.21 global table is invisible to them),
 * and ListGlobalTables lists none. Recorded on AWS in 2026 (ScyllaDB's
 * test/alternator/test_global_tables.py, run against DynamoDB). Six trivial operations, one file:
 * none has a state or a validation of its own beyond its shape.
 */

export const LegacyMessages = {
  notSupported: `${INVALID}DynamoDB global tables version 2017.11.29 is not supported. We recommend using DynamoDB global tables version 2019.11.21, instead of version 2017.11.29 (Legacy).`,
  notFound: (name: string) => `Global table with name '${name}' does not exist.`,
} as const;

const notFound = (input: GlobalTableNameInput): never => {
  throw new GlobalTableNotFoundException(LegacyMessages.notFound(input.GlobalTableName));
};

export const createGlobalTable = defineOperation<GlobalTableNameInput, Record<string, unknown>>({
  name: 'CreateGlobalTable',
  shape: createGlobalTableShape,
  execute() {
    throw new ValidationException(LegacyMessages.notSupported);
  },
});

export const updateGlobalTable = defineOperation<GlobalTableNameInput, Record<string, unknown>>({
  name: 'UpdateGlobalTable',
  shape: updateGlobalTableShape,
  execute: (_context, input) => notFound(input),
});

export const describeGlobalTable = defineOperation<GlobalTableNameInput, Record<string, unknown>>({
  name: 'DescribeGlobalTable',
  shape: globalTableNameShape,
  execute: (_context, input) => notFound(input),
});

export const describeGlobalTableSettings = defineOperation<GlobalTableNameInput, Record<string, unknown>>({
  name: 'DescribeGlobalTableSettings',
  shape: globalTableNameShape,
  execute: (_context, input) => notFound(input),
});

export const updateGlobalTableSettings = defineOperation<GlobalTableNameInput, Record<string, unknown>>({
  name: 'UpdateGlobalTableSettings',
  shape: updateGlobalTableSettingsShape,
  execute: (_context, input) => notFound(input),
});

export const listGlobalTables = defineOperation<Record<string, unknown>, Record<string, unknown>>({
  name: 'ListGlobalTables',
  shape: listGlobalTablesShape,
  execute: () => ({ GlobalTables: [] }),
});

// biome-ignore lint/suspicious/noExplicitAny: each definition carries its own input/output types.
export const legacyGlobalTableOperations: OperationDefinition<any, any, any>[] = [
  createGlobalTable,
  updateGlobalTable,
  describeGlobalTable,
  describeGlobalTableSettings,
  updateGlobalTableSettings,
  listGlobalTables,
];
