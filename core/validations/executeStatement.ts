import { ValidationException } from '../errors/index.js';
import type { AttributeValue } from '../model/attributeValue.js';
import type { Statement } from '../partiql/ast.js';
import { parseStatementCached } from '../partiql/cache.js';
import { PartiqlMessages } from '../partiql/errors.js';
import { checkParameterNumbers } from '../partiql/parameters.js';
import { checkParameterCount } from '../partiql/where.js';
import { returnConsumedCapacity, returnValuesOnConditionCheckFailure } from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import type { ListShape, Shape, StringShape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteStatement.html */
export interface ExecuteStatementInput {
  Statement: string;
  Parameters?: AttributeValue[];
  ConsistentRead?: boolean;
  NextToken?: string;
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
  Limit?: number;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}

/** PartiQLStatement: 1..8192 characters (API reference data types). */
export const partiqlStatement: StringShape = {
  kind: 'string',
  required: true,
  minLength: 1,
  maxLength: 8192,
};
/** PreparedStatementParameters: at least one AttributeValue. */
export const statementParameters: ListShape = {
  kind: 'list',
  member: { kind: 'attributeValue' },
  minLength: 1,
};

export const executeStatementShape: Record<string, Shape> = {
  Statement: partiqlStatement,
  Parameters: statementParameters,
  ConsistentRead: { kind: 'boolean' },
  NextToken: { kind: 'string', minLength: 1, maxLength: 32768 },
  ReturnConsumedCapacity: returnConsumedCapacity,
  Limit: { kind: 'integer', min: 1 },
  ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
};

export interface PreparedStatement {
  statement: Statement;
}

/**
 * Stateless checks of ExecuteStatement (docs/partiql.md §4.1): the parameters' AttributeValues, the
 * statement's grammar (cached per text), EXISTS (transactions only), the parameter count.
 */
export function validateExecuteStatement(
  input: ExecuteStatementInput,
  deserialized: Deserialized,
): PreparedStatement {
  checkParameterNumbers(deserialized.raw.Parameters);
  throwAttributeProblem(deserialized, 'Parameters');
  const statement = parseStatementCached(input.Statement);
  if (statement.kind === 'exists') throw new ValidationException(PartiqlMessages.existsOutsideTransaction);
  checkParameterCount(statement.parameterCount, input.Parameters);
  return { statement };
}
