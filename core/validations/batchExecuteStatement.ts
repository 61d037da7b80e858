import { ValidationException } from '../errors/index.js';
import type { AttributeValue } from '../model/attributeValue.js';
import { type AttributeProblems, parseAttributeValue } from '../model/parseAttributeValue.js';
import type { Statement } from '../partiql/ast.js';
import { parseStatementCached } from '../partiql/cache.js';
import { PartiqlMessages } from '../partiql/errors.js';
import { checkParameterNumbers } from '../partiql/parameters.js';
import { checkParameterCount } from '../partiql/where.js';
import { returnConsumedCapacity, returnValuesOnConditionCheckFailure } from './common.js';
import type { Deserialized } from './deserialize.js';
import { partiqlStatement, statementParameters } from './executeStatement.js';
import type { Shape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html */
export interface BatchStatementRequest {
  Statement: string;
  Parameters?: AttributeValue[];
  ConsistentRead?: boolean;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}
export interface BatchExecuteStatementInput {
  Statements: BatchStatementRequest[];
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
}

/** 25 statements per batch, all reads or all writes (docs/partiql.md §4.2). */
export const MAX_BATCH_STATEMENTS = 25;

export const batchExecuteStatementShape: Record<string, Shape> = {
  Statements: {
    kind: 'list',
    required: true,
    minLength: 1,
    maxLength: MAX_BATCH_STATEMENTS,
    member: {
      kind: 'structure',
      name: 'BatchStatementRequest',
      members: {
        Statement: partiqlStatement,
        Parameters: statementParameters,
        ConsistentRead: { kind: 'boolean' },
        ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
      },
    },
  },
  ReturnConsumedCapacity: returnConsumedCapacity,
};

/** One statement of the batch: parsed, or the error its slot answers. */
export type PreparedBatchStatement =
  | { statement: Statement; error?: undefined }
  | { statement?: undefined; error: string };

export interface PreparedBatch {
  reads: boolean;
  statements: PreparedBatchStatement[];
}

/**
 * A statement that cannot be parsed, or whose parameters are invalid, answers its own
 * ValidationError and the others still run; reads and writes may not be mixed (docs/partiql.md §4.2).
 */
export function validateBatchExecuteStatement(
  input: BatchExecuteStatementInput,
  deserialized: Deserialized,
): PreparedBatch {
  const rawStatements = deserialized.raw.Statements as { Parameters?: unknown }[];
  const hasProblem = deserialized.attributeProblems.has('Statements');
  let reads: boolean | undefined;
  const statements = input.Statements.map((request, index): PreparedBatchStatement => {
    let statement: Statement;
    try {
      checkParameterNumbers(rawStatements[index]?.Parameters);
      if (hasProblem) throwParameterProblem(rawStatements[index]?.Parameters);
      statement = parseStatementCached(request.Statement);
      if (statement.kind === 'exists')
        throw new ValidationException(PartiqlMessages.existsOutsideTransaction);
    } catch (error) {
      if (error instanceof ValidationException) return { error: error.message };
      throw error;
    }
    // Mixing reads and writes refuses the whole request (docs/partiql.md §4.2).
    const isRead = statement.kind === 'select';
    if (reads === undefined) reads = isRead;
    else if (reads !== isRead) throw new ValidationException(PartiqlMessages.batchMixed);
    try {
      checkParameterCount(statement.parameterCount, request.Parameters);
    } catch (error) {
      if (error instanceof ValidationException) return { error: error.message };
      throw error;
    }
    return { statement };
  });
  return { reads: reads ?? true, statements };
}

/** Finds which statement's Parameters hold the request's first AttributeValue problem. */
function throwParameterProblem(raw: unknown): void {
  if (!Array.isArray(raw)) return;
  const problems: AttributeProblems = { first: undefined };
  for (const value of raw) {
    if (value === null || value === undefined) continue;
    parseAttributeValue(value, 'element', problems);
    if (problems.first !== undefined) throw new ValidationException(problems.first);
  }
}
