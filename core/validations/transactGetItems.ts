import type { ProjectionPlan } from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import {
  attributeMap,
  dataPlaneTableName,
  expressionAttributeNames,
  expressionString,
  returnConsumedCapacity,
} from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import { prepareProjection } from './getItem.js';
import type { Shape } from './shape.js';
import { transactItems } from './sharedMembers.js';

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
  TransactItems: transactItems('TransactGetItem', {
    Get: {
      kind: 'structure',
      name: 'Get',
      required: true,
      members: {
        TableName: dataPlaneTableName,
        Key: attributeMap(true),
        ProjectionExpression: expressionString,
        ExpressionAttributeNames: expressionAttributeNames,
      },
    },
  }),
  ReturnConsumedCapacity: returnConsumedCapacity,
};

export interface PreparedTransactGet {
  projections: (ProjectionPlan | undefined)[];
}

export function validateTransactGetItems(
  input: TransactGetItemsInput,
  deserialized: Deserialized,
): PreparedTransactGet {
  throwAttributeProblem(deserialized, 'TransactItems');
  return { projections: input.TransactItems.map(({ Get }) => prepareProjection(Get)) };
}
