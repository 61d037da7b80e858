import { ValidationException } from '../errors/index.js';
import type { ProjectionPlan } from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import type { ActionContext } from '../operation.js';
import { defineOperation } from '../operation.js';
import type { SelectStatement, Statement } from '../partiql/ast.js';
import { PartiqlMessages } from '../partiql/errors.js';
import { SelectProjection } from '../partiql/projection.js';
import { combine, conjunctsOf, fullKey } from '../partiql/where.js';
import { bindWrite, keyDefinitions } from '../partiql/writes.js';
import type { Table } from '../store/table.js';
import {
  type ExecuteTransactionInput,
  executeTransactionShape,
  inStatement,
  type ParameterizedStatement,
  type PreparedTransaction,
  validateExecuteTransaction,
} from '../validations/executeTransaction.js';
import type { PreparedAction } from '../validations/transactWriteItems.js';
import { transactGetItems } from './transactGetItems.js';
import { transactWriteItems } from './transactWriteItems.js';

/**
 * ExecuteTransaction: up to 100 PartiQL statements, all reads (run as TransactGetItems) or all
 * writes (run as TransactWriteItems: INSERT a Put, UPDATE an Update, DELETE a Delete, EXISTS a
 * ConditionCheck), so atomicity, cancellation reasons, idempotency tokens (shared with
 * TransactWriteItems') and doubled capacity are those operations' (docs/partiql.md §4.3).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteTransaction.html
 */
export const executeTransaction = defineOperation({
  name: 'ExecuteTransaction',
  shape: executeTransactionShape,
  validate: validateExecuteTransaction,
  execute(context, input: ExecuteTransactionInput, prepared: PreparedTransaction) {
    if (prepared.reads) return readTransaction(context, input, prepared.statements as SelectStatement[]);
    const actions = prepared.statements.map((statement, index) =>
      writeAction(context, statement, input.TransactStatements[index]!, index),
    );
    const output = transactWriteItems.execute(
      context,
      {
        TransactItems: [],
        ClientRequestToken: input.ClientRequestToken,
        ReturnConsumedCapacity: input.ReturnConsumedCapacity,
      },
      { actions, fingerprint: prepared.fingerprint },
    );
    // Writes answer an empty Responses list (docs/partiql.md §4.3).
    const result: Record<string, unknown> = { Responses: [] };
    if (output.ConsumedCapacity !== undefined) result.ConsumedCapacity = output.ConsumedCapacity;
    return result;
  },
});

function writeAction(
  context: ActionContext,
  statement: Statement,
  request: ParameterizedStatement,
  index: number,
): PreparedAction {
  const parameters = request.Parameters ?? [];
  const returnOnFailure = request.ReturnValuesOnConditionCheckFailure;
  return inStatement(index, () => {
    if (statement.kind === 'select') throw new ValidationException(PartiqlMessages.transactionMixed);
    if (statement.kind === 'exists') {
      const { table, key, rest } = addressedItem(
        context,
        statement.select,
        parameters,
        PartiqlMessages.existsNeedsCondition,
      );
      if (rest === undefined) throw new ValidationException(PartiqlMessages.existsNeedsCondition);
      return {
        kind: 'ConditionCheck',
        request: { TableName: table.name, Key: key, ReturnValuesOnConditionCheckFailure: returnOnFailure },
        condition: rest,
        update: undefined,
      };
    }
    if (statement.kind !== 'insert' && statement.returning !== undefined)
      throw new ValidationException(PartiqlMessages.returningInTransaction);
    const bound = bindWrite(context, statement, parameters);
    return {
      kind: bound.kind,
      request: {
        TableName: bound.table.name,
        ...(bound.item ? { Item: bound.item } : { Key: bound.key! }),
        ReturnValuesOnConditionCheckFailure: returnOnFailure,
      },
      condition: bound.condition,
      update: bound.update,
      duplicateOnConditionFailure: bound.kind === 'Put',
    };
  });
}

/** The item a transaction SELECT or EXISTS names: the full key, and what else its WHERE asks. */
function addressedItem(
  context: ActionContext,
  select: SelectStatement,
  parameters: NonNullable<ParameterizedStatement['Parameters']>,
  missingKey: string,
): { table: Table; key: AttributeMap; rest: ReturnType<typeof combine> } {
  const conjuncts = conjunctsOf(select.where, parameters);
  if (select.index !== undefined) throw new ValidationException(PartiqlMessages.transactionIndexRead);
  const table = context.engine.dataPlaneTable(context.region, select.table);
  const found = fullKey(conjuncts, keyDefinitions(table), parameters);
  if (found === undefined) throw new ValidationException(missingKey);
  return { table, key: found.key, rest: combine(found.rest) };
}

function readTransaction(
  context: ActionContext,
  input: ExecuteTransactionInput,
  statements: SelectStatement[],
) {
  const projections: (ProjectionPlan | undefined)[] = [];
  const items = statements.map((statement, index) =>
    inStatement(index, () => {
      const parameters = input.TransactStatements[index]!.Parameters ?? [];
      const { table, key, rest } = addressedItem(
        context,
        statement,
        parameters,
        PartiqlMessages.transactionSelectKey,
      );
      if (rest !== undefined || statement.orderBy.length > 0)
        throw new ValidationException(PartiqlMessages.transactionSelectKey);
      projections.push(statement.projection ? new SelectProjection(statement.projection) : undefined);
      return { Get: { TableName: table.name, Key: key } };
    }),
  );
  return transactGetItems.execute(
    context,
    { TransactItems: items, ReturnConsumedCapacity: input.ReturnConsumedCapacity },
    { projections },
  );
}
