import type { ActionContext } from '../operation.js';
import { defineOperation } from '../operation.js';
import type { SelectStatement } from '../partiql/ast.js';
import { checkFilterProjection, selectTarget } from '../partiql/indexTarget.js';
import { requestHash } from '../partiql/nextToken.js';
import { runGet, runSelect } from '../partiql/reads.js';
import { planSelect } from '../partiql/selectPlan.js';
import { conjunctsOf } from '../partiql/where.js';
import { bindWrite, boundKey, planWrite, returnedItems } from '../partiql/writes.js';
import {
  type ExecuteStatementInput,
  executeStatementShape,
  type PreparedStatement,
  validateExecuteStatement,
} from '../validations/executeStatement.js';
import { chargeWrite, planCharged } from './shared/capacityCharge.js';
import { withOptional, writeCapacity } from './shared/writeSupport.js';

/**
 * ExecuteStatement: one PartiQL statement, planned onto the engine's own operations
 * (docs/partiql.md §3): a SELECT reads as GetItem, Query or Scan, a write is a PutItem, UpdateItem
 * or DeleteItem through the same commit point (stream records, index upkeep, TTL, capacity).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteStatement.html
 */
export const executeStatement = defineOperation({
  name: 'ExecuteStatement',
  shape: executeStatementShape,
  validate: validateExecuteStatement,
  execute(context, input: ExecuteStatementInput, prepared: PreparedStatement) {
    const { statement } = prepared;
    const parameters = input.Parameters ?? [];
    if (statement.kind === 'select') return select(context, input, statement);
    if (statement.kind === 'exists') throw new Error('EXISTS is refused by validation');
    const bound = bindWrite(context, statement, parameters);
    const planned = planCharged(
      context.engine,
      bound.table,
      () => boundKey(bound),
      () => planWrite(bound, input.ReturnValuesOnConditionCheckFailure),
    );
    // Charged as the PutItem, UpdateItem or DeleteItem it is planned onto: throttled, nothing is
    // written (docs/capacity.md §5).
    chargeWrite(context.engine, planned.table, planned.write);
    context.engine.commit(context.region, planned.table, [planned.write]);
    const { previous, next } = planned.write;
    return withOptional(
      { Items: returnedItems(statement, planned) },
      'ConsumedCapacity',
      writeCapacity(input.ReturnConsumedCapacity, context.engine, planned.table, previous, next),
    );
  },
});

function select(context: ActionContext, input: ExecuteStatementInput, statement: SelectStatement) {
  const parameters = input.Parameters ?? [];
  const conjuncts = conjunctsOf(statement.where, parameters);
  const table = context.engine.dataPlaneTable(context.region, statement.table);
  const consistentRead = input.ConsistentRead === true;
  const onIndex = statement.index !== undefined;
  // The target of a Query or Scan is made only when one runs: most SELECTs read one item.
  let target = onIndex ? selectTarget(table, statement.index, consistentRead) : undefined;
  const plan = planSelect(statement, conjuncts, target?.key ?? table.key, onIndex, parameters);
  if (plan.kind === 'get')
    return runGet(context.engine, table, plan, consistentRead, input.ReturnConsumedCapacity);
  target ??= selectTarget(table, undefined, consistentRead);
  checkFilterProjection(target, plan);
  return runSelect({
    engine: context.engine,
    target,
    plan,
    consistentRead,
    limit: input.Limit,
    nextToken: input.NextToken,
    returnConsumedCapacity: input.ReturnConsumedCapacity,
    requestHash: () => requestHash(input.Statement, input.Parameters),
  });
}
