import {
  checkExpressionAttributeNames,
  checkExpressionParameters,
  ExpressionScope,
  type ProjectionPlan,
  projectionFromAttributesToGet,
} from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import {
  attributeMap,
  attributesToGet,
  dataPlaneTableName,
  expressionAttributeNames,
  expressionString,
  returnConsumedCapacity,
} from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import type { Shape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html */
export interface GetItemInput {
  TableName: string;
  Key: AttributeMap;
  AttributesToGet?: string[];
  ConsistentRead?: boolean;
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

/**
 * Members in the order the service walks them for the constraint list, which decides the ten
 * entries it reports when there are more (recorded in dynalite's tests, docs/dynamodb.md §1.2.8).
 */
export const getItemShape: Record<string, Shape> = {
  ReturnConsumedCapacity: returnConsumedCapacity,
  AttributesToGet: attributesToGet,
  TableName: dataPlaneTableName,
  Key: attributeMap(true),
  ConsistentRead: { kind: 'boolean' },
  ProjectionExpression: expressionString,
  ExpressionAttributeNames: expressionAttributeNames,
};

export interface PreparedRead {
  projection: ProjectionPlan | undefined;
}

/** The projection of a read, from ProjectionExpression or legacy AttributesToGet (docs/dynamodb.md §8.2). */
export function prepareProjection(input: {
  AttributesToGet?: string[];
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}): ProjectionPlan | undefined {
  let projection: ProjectionPlan | undefined;
  if (input.AttributesToGet !== undefined) projection = projectionFromAttributesToGet(input.AttributesToGet);
  if (input.ProjectionExpression === undefined && input.ExpressionAttributeNames === undefined)
    return projection;
  checkExpressionAttributeNames(input.ExpressionAttributeNames);
  const scope = new ExpressionScope(input.ExpressionAttributeNames, undefined);
  if (input.ProjectionExpression !== undefined)
    projection = scope.parseProjection(input.ProjectionExpression);
  scope.checkUnused();
  return projection;
}

export function validateGetItem(input: GetItemInput, deserialized: Deserialized): PreparedRead {
  checkExpressionParameters('GetItem', input as unknown as Record<string, unknown>);
  throwAttributeProblem(deserialized, 'Key');
  return { projection: prepareProjection(input) };
}
