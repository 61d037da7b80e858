import { ValidationException } from '../errors/index.js';
import type { ConditionExpression, UpdatePlan } from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { canonicalJson } from '../model/canonicalJson.js';
import {
  attributeMap,
  dataPlaneTableName,
  expressionString,
  returnConsumedCapacity,
  returnItemCollectionMetrics,
  returnValuesOnConditionCheckFailure,
} from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import type { Shape, StructureShape } from './shape.js';
import { expressionAttributeMembers, transactItems } from './sharedMembers.js';
import { prepareWriteCondition } from './writeRequest.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html */
interface ActionBase {
  TableName: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}
export interface TransactPut extends ActionBase {
  Item: AttributeMap;
}
export interface TransactKeyed extends ActionBase {
  Key: AttributeMap;
}
export interface TransactUpdate extends TransactKeyed {
  UpdateExpression: string;
}
export interface TransactWriteItem {
  ConditionCheck?: TransactKeyed;
  Put?: TransactPut;
  Delete?: TransactKeyed;
  Update?: TransactUpdate;
}
export interface TransactWriteItemsInput {
  TransactItems: TransactWriteItem[];
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
  ReturnItemCollectionMetrics?: 'SIZE' | 'NONE';
  ClientRequestToken?: string;
}

/** The request payload limit (docs/dynamodb.md §7.3.3): item sizes touched do not count. */
export const MAX_TRANSACTION_PAYLOAD_BYTES = 4 * 1024 * 1024;

const expressionMembers = {
  TableName: dataPlaneTableName,
  ConditionExpression: expressionString,
  ...expressionAttributeMembers,
  ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
};

const action = (name: string, members: Record<string, Shape>): StructureShape => ({
  kind: 'structure',
  name,
  members: { ...expressionMembers, ...members },
});

export const transactWriteItemsShape: Record<string, Shape> = {
  TransactItems: transactItems('TransactWriteItem', {
    ConditionCheck: action('ConditionCheck', {
      Key: attributeMap(true),
      ConditionExpression: { kind: 'string', required: true },
    }),
    Put: action('Put', { Item: attributeMap(true) }),
    Delete: action('Delete', { Key: attributeMap(true) }),
    Update: action('Update', {
      Key: attributeMap(true),
      UpdateExpression: { kind: 'string', required: true },
    }),
  }),
  ReturnConsumedCapacity: returnConsumedCapacity,
  ReturnItemCollectionMetrics: returnItemCollectionMetrics,
  ClientRequestToken: { kind: 'string', minLength: 1, maxLength: 36 },
};

export type ActionKind = 'ConditionCheck' | 'Put' | 'Delete' | 'Update';

export interface PreparedAction {
  kind: ActionKind;
  request: ActionBase & { Item?: AttributeMap; Key?: AttributeMap };
  condition: ConditionExpression | undefined;
  update: UpdatePlan | undefined;
  /**
   * A PartiQL INSERT (ExecuteTransaction): its failed `attribute_not_exists` condition is a
   * duplicate key, reported as a ValidationError (docs/partiql.md §4.3).
   */
  duplicateOnConditionFailure?: boolean;
}

export interface PreparedTransactWrite {
  actions: PreparedAction[];
  /** Canonical text of the request without its token, for idempotency (docs/dynamodb.md §7.3.4). */
  fingerprint: string;
}

const NO_PROBLEMS: Deserialized = { input: {}, attributeProblems: new Map(), raw: {} };

/**
 * Whole-request checks of a transaction (docs/dynamodb.md §7.3.6): they answer ValidationException without
 * the `1 validation error detected: ` prefix; per-action problems found against stored data
 * cancel the transaction instead.
 */
export function validateTransactWriteItems(
  input: TransactWriteItemsInput,
  deserialized: Deserialized,
): PreparedTransactWrite {
  const { ClientRequestToken: _token, ...rest } = deserialized.raw;
  const fingerprint = canonicalJson(rest);
  // The request's JSON size; canonicalJson's text is as long as JSON.stringify's and, unlike it,
  // survives arrays nested millions deep in members the service ignores.
  if (Buffer.byteLength(canonicalJson(deserialized.raw)) > MAX_TRANSACTION_PAYLOAD_BYTES) {
    throw new ValidationException('Transaction request size cannot exceed 4 MB.');
  }
  throwAttributeProblem(deserialized, 'TransactItems');
  const actions = input.TransactItems.map((item): PreparedAction => {
    const kinds = (['ConditionCheck', 'Put', 'Delete', 'Update'] as const).filter(
      (kind) => item[kind] !== undefined,
    );
    // No action at all: the newer framework's entry (eu-west-2, 2026); more than one: moto's text.
    if (kinds.length === 0) {
      throw new ValidationException(
        "1 validation error detected: Value '' at 'transactItems' failed to satisfy constraint: TransactWriteRequest should contain Delete or Put or Update or ConditionCheck",
      );
    }
    if (kinds.length > 1) {
      throw new ValidationException('TransactItems can only contain one of Check, Put, Update or Delete');
    }
    const kind = kinds[0]!;
    const request = item[kind]!;
    let update: UpdatePlan | undefined;
    const condition = prepareWriteCondition(request, NO_PROBLEMS, (scope) => {
      if (kind === 'Update') update = scope.parseUpdate((request as TransactUpdate).UpdateExpression);
    });
    return { kind, request, condition, update };
  });
  return { actions, fingerprint };
}
