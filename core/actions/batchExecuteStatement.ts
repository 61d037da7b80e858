import { type ConsumedCapacity, consumedCapacity, readUnits, writeUnits } from '../capacity.js';
import {
  ConditionalCheckFailedException,
  DuplicateItemException,
  type DynamoDbError,
  ProvisionedThroughputExceededException,
  ResourceNotFoundException,
  ThrottlingException,
  TransactionConflictException,
  ValidationException,
} from '../errors/index.js';
import type { ActionContext } from '../operation.js';
import { defineOperation } from '../operation.js';
import type { SelectStatement, Statement } from '../partiql/ast.js';
import { PartiqlMessages } from '../partiql/errors.js';
import { SelectProjection } from '../partiql/projection.js';
import { conjunctsOf, fullKey } from '../partiql/where.js';
import { bindWrite, boundKey, keyDefinitions, planWrite, returnedItems } from '../partiql/writes.js';
import type { Table } from '../store/table.js';
import {
  type BatchExecuteStatementInput,
  type BatchStatementRequest,
  batchExecuteStatementShape,
  type PreparedBatch,
  validateBatchExecuteStatement,
} from '../validations/batchExecuteStatement.js';
import { encodeKey } from '../validations/keys.js';
import { chargeWrite, planCharged } from './shared/capacityCharge.js';

/**
 * BatchExecuteStatement: up to 25 reads (each a GetItem by the full primary key) or 25 writes
 * (each committed on its own, like BatchWriteItem's), answered in request order with a
 * per-statement Error instead of failing the batch (docs/partiql.md §4.2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html
 */
export const batchExecuteStatement = defineOperation({
  name: 'BatchExecuteStatement',
  shape: batchExecuteStatementShape,
  validate: validateBatchExecuteStatement,
  execute(context, input: BatchExecuteStatementInput, prepared: PreparedBatch) {
    const units = new Map<Table, number>();
    const charge = (table: Table, amount: number) => units.set(table, (units.get(table) ?? 0) + amount);
    const responses = prepared.statements.map((entry, index) => {
      if (entry.error !== undefined) return { Error: { Code: 'ValidationError', Message: entry.error } };
      const request = input.Statements[index]!;
      const slot: { table?: Table } = {};
      try {
        return runStatement(context, entry.statement, request, slot, charge);
      } catch (error) {
        const failure = batchError(error as Error);
        if (failure === undefined) throw error;
        return slot.table === undefined ? { Error: failure } : { Error: failure, TableName: slot.table.name };
      }
    });
    const output: Record<string, unknown> = { Responses: responses };
    const mode = input.ReturnConsumedCapacity;
    if (mode !== undefined && mode !== 'NONE') {
      const consumed: ConsumedCapacity[] = [];
      for (const [table, total] of units) consumed.push(consumedCapacity(mode, table.name, total)!);
      output.ConsumedCapacity = consumed;
    }
    return output;
  },
});

function runStatement(
  context: ActionContext,
  statement: Statement,
  request: BatchStatementRequest,
  slot: { table?: Table },
  charge: (table: Table, units: number) => void,
): Record<string, unknown> {
  // Only a statement that reached its table names it when it fails: one refused by its own checks
  // does not (nubo-db conformance batchExecuteStatement.test.ts, docs/partiql.md §4.2).
  if (statement.kind === 'select') return readItem(context, statement, request, slot, charge);
  if (statement.kind === 'exists') throw new ValidationException(PartiqlMessages.existsOutsideTransaction);
  const bound = bindWrite(context, statement, request.Parameters ?? []);
  slot.table = bound.table;
  // ReturnValuesOnConditionCheckFailure is inert on a batch member: no Item, whatever it says
  // (the same suite, with TransactWriteItems' ConditionCheck as its control).
  const planned = planCharged(
    context.engine,
    bound.table,
    () => boundKey(bound),
    () => planWrite(bound, undefined),
  );
  // Charged as its PutItem, UpdateItem or DeleteItem; throttled, it is not written and its Error
  // says so (`batchError`), while the others still run (docs/capacity.md §5).
  chargeWrite(context.engine, planned.table, planned.write);
  context.engine.commit(context.region, planned.table, [planned.write]);
  const { previous, next } = planned.write;
  charge(planned.table, writeUnits(Math.max(previous?.size ?? 0, next?.size ?? 0)));
  // RETURNING is honoured, onto the statement's Item; an empty MODIFIED result leaves it out.
  const [returned] = returnedItems(statement, planned);
  return returned === undefined
    ? { TableName: planned.table.name }
    : { TableName: planned.table.name, Item: returned };
}

/** A batch SELECT reads one item: the full primary key and nothing else (docs/partiql.md §4.2). */
function readItem(
  context: ActionContext,
  statement: SelectStatement,
  request: BatchStatementRequest,
  slot: { table?: Table },
  charge: (table: Table, units: number) => void,
): Record<string, unknown> {
  const parameters = request.Parameters ?? [];
  const conjuncts = conjunctsOf(statement.where, parameters);
  const projection = statement.projection ? new SelectProjection(statement.projection) : undefined;
  const table = context.engine.dataPlaneTable(context.region, statement.table);
  const found =
    statement.index === undefined ? fullKey(conjuncts, keyDefinitions(table), parameters) : undefined;
  if (found === undefined || found.rest.length > 0 || statement.orderBy.length > 0)
    throw new ValidationException(PartiqlMessages.batchSelectKey);
  slot.table = table;
  const key = encodeKey(found.key, table.key);
  const stored = table.items.get(key.hashKey, key.rangeKey);
  const units = readUnits(stored?.size ?? 0, request.ConsistentRead === true);
  // Charged as its GetItem; throttled, the statement answers an Error (docs/capacity.md §5).
  if (context.engine.capacity.active) context.engine.capacity.readItem(table, units, key.hashKey);
  charge(table, units);
  const response: Record<string, unknown> = { TableName: table.name };
  if (stored !== undefined) response.Item = projection ? projection.apply(stored.decode()) : stored;
  return response;
}

/**
 * The Error of a failed statement, by the service's codes (BatchStatementErrorCodeEnum in botocore's
 * service model, https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchStatementError.html);
 * undefined for eddy's own bugs. A throttled statement is `ProvisionedThroughputExceeded` or
 * `ThrottlingError` with the exception's message: the Error has no ThrottlingReasons member.
 */
function batchError(error: Error): Record<string, unknown> | undefined {
  const { message } = error as DynamoDbError;
  if (error instanceof ProvisionedThroughputExceededException)
    return { Code: 'ProvisionedThroughputExceeded', Message: message };
  if (error instanceof ThrottlingException) return { Code: 'ThrottlingError', Message: message };
  if (error instanceof ValidationException) return { Code: 'ValidationError', Message: message };
  if (error instanceof ResourceNotFoundException) return { Code: 'ResourceNotFound', Message: message };
  if (error instanceof DuplicateItemException) return { Code: 'DuplicateItem', Message: message };
  if (error instanceof TransactionConflictException) return { Code: 'TransactionConflict', Message: message };
  if (error instanceof ConditionalCheckFailedException)
    return { Code: 'ConditionalCheckFailed', Message: message };
  return undefined;
}
