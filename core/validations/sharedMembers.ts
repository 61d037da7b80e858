import { expressionAttributeNames, expressionAttributeValues } from './common.js';
import type { ListShape, Shape } from './shape.js';

/**
 * Groups of request members that several operations declare alike; each operation's shape spreads
 * the groups it takes. A shape's member order is the order its constraint list reports in
 * (docs/dynamodb.md §8.1), so a group holds only members that every operation using it lists together, in
 * this order.
 */

/** The placeholders an operation's expressions use. */
export const expressionAttributeMembers = {
  ExpressionAttributeNames: expressionAttributeNames,
  ExpressionAttributeValues: expressionAttributeValues,
} satisfies Record<string, Shape>;

/** 100 actions per transaction (25 before September 2022), docs/dynamodb.md §7.3.1. */
export const MAX_TRANSACTION_ACTIONS = 100;

/** TransactItems of TransactGetItems and TransactWriteItems: 1..100 entries of one structure. */
export const transactItems = (name: string, members: Record<string, Shape>): ListShape => ({
  kind: 'list',
  required: true,
  minLength: 1,
  maxLength: MAX_TRANSACTION_ACTIONS,
  // `Value at 'TransactItems' …`: the newer framework, reached in October 2026 (docs/dynamodb.md §7.3.1).
  framework: 'newer',
  member: { kind: 'structure', name, members },
});
