import { ValidationException } from '../errors/index.js';
import type { AttributeValue } from '../model/attributeValue.js';
import { canonicalJson } from '../model/canonicalJson.js';
import type { Statement } from '../partiql/ast.js';
import { parseStatementCached } from '../partiql/cache.js';
import { PartiqlMessages } from '../partiql/errors.js';
import { checkParameterNumbers } from '../partiql/parameters.js';
import { checkParameterCount } from '../partiql/where.js';
import { returnConsumedCapacity, returnValuesOnConditionCheckFailure } from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import { partiqlStatement, statementParameters } from './executeStatement.js';
import type { Shape } from './shape.js';
import { MAX_TRANSACTION_ACTIONS } from './sharedMembers.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteTransaction.html */
export interface ParameterizedStatement {
  Statement: string;
  Parameters?: AttributeValue[];
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}
export interface ExecuteTransactionInput {
  TransactStatements: ParameterizedStatement[];
  ClientRequestToken?: string;
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
}

export const executeTransactionShape: Record<string, Shape> = {
  TransactStatements: {
    kind: 'list',
    required: true,
    minLength: 1,
    maxLength: MAX_TRANSACTION_ACTIONS,
    member: {
      kind: 'structure',
      name: 'ParameterizedStatement',
      members: {
        Statement: partiqlStatement,
        Parameters: statementParameters,
        ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
      },
    },
  },
  ClientRequestToken: { kind: 'string', minLength: 1, maxLength: 36 },
  ReturnConsumedCapacity: returnConsumedCapacity,
};

export interface PreparedTransaction {
  reads: boolean;
  statements: Statement[];
  /** Canonical text of the request without its token, for idempotency (docs/dynamodb.md §7.3.4). */
  fingerprint: string;
}

/** Wraps a statement's ValidationException as the service names its place (docs/partiql.md §4.3). */
export function inStatement<T>(index: number, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ValidationException)
      throw new ValidationException(PartiqlMessages.transactionFailed(index, error.message));
    throw error;
  }
}

/**
 * Whole-request checks of ExecuteTransaction (docs/partiql.md §4.3): parameters, each statement's
 * grammar and parameter count (named `TransactStatements[i]`), then all reads or all writes.
 */
export function validateExecuteTransaction(
  input: ExecuteTransactionInput,
  deserialized: Deserialized,
): PreparedTransaction {
  const { ClientRequestToken: _token, ...rest } = deserialized.raw;
  const raws = deserialized.raw.TransactStatements;
  if (Array.isArray(raws))
    for (const raw of raws) checkParameterNumbers((raw as { Parameters?: unknown } | null)?.Parameters);
  throwAttributeProblem(deserialized, 'TransactStatements');
  let reads: boolean | undefined;
  const statements = input.TransactStatements.map((request, index) => {
    const statement = inStatement(index, () => {
      const parsed = parseStatementCached(request.Statement);
      checkParameterCount(parsed.parameterCount, request.Parameters);
      return parsed;
    });
    const isRead = statement.kind === 'select';
    if (reads === undefined) reads = isRead;
    else if (reads !== isRead) throw new ValidationException(PartiqlMessages.transactionMixed);
    return statement;
  });
  return { reads: reads ?? false, statements, fingerprint: canonicalJson(rest) };
}
