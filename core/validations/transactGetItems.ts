import { ValidationException } from '../errors/index.js';
import type { ProjectionPlan } from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import {
  attributeMap,
  expressionAttributeNames,
  expressionString,
  returnConsumedCapacity,
  tableName,
} from './common.js';
import type { Deserialized } from './deserialize.js';
import { prepareProjection } from './getItem.js';
import type { Shape } from './shape.js';
import { MAX_TRANSACTION_ACTIONS } from './transactWriteItems.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactGetItems.html */
export interface TransactGet {
  TableName: string;
  Key: AttributeMap;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

export interface TransactGetItemsInput {
  TransactItems: { Get: TransactGet }[];
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
}

export const transactGetItemsShape: Record<string, Shape> = {
  TransactItems: {
    kind: 'list',
    required: true,
    minLength: 1,
    maxLength: MAX_TRANSACTION_ACTIONS,
    member: {
      kind: 'structure',
      name: 'TransactGetItem',
      members: {
        Get: {
          kind: 'structure',
          name: 'Get',
          required: true,
          members: {
            TableName: tableName,
            Key: attributeMap(true),
            ProjectionExpression: expressionString,
            ExpressionAttributeNames: expressionAttributeNames,
          },
        },
      },
    },
  },
  ReturnConsumedCapacity: returnConsumedCapacity,
};

export interface PreparedTransactGet {
  projections: (ProjectionPlan | undefined)[];
}

export function validateTransactGetItems(
  input: TransactGetItemsInput,
  deserialized: Deserialized,
): PreparedTransactGet {
  const problem = deserialized.attributeProblems.get('TransactItems');
  if (problem) throw new ValidationException(problem.message);
  return { projections: input.TransactItems.map(({ Get }) => prepareProjection(Get)) };
}
