import { ValidationException } from '../errors/index.js';
import type { AttributeType } from '../model/attributeValue.js';
import type { ExpressionKind } from './index.js';

/**
 * Message texts of the expression engine, verbatim from the service (docs/dynamodb.md §5). Messages that
 * belong to one expression are prefixed `Invalid <Kind>Expression: ` by `expressionError`.
 */
export const ExpressionMessages = {
  empty: 'The expression can not be empty;',
  tooLarge: (bytes: number) =>
    `Expression size has exceeded the maximum allowed size; expression size: ${bytes}`,
  tooManyOperators: (count: number) => `The expression contains too many operators; operator count: ${count}`,
  syntax: (token: string, near: string) => `Syntax error; token: "${token}", near: "${near}"`,
  redundantParentheses: 'The expression has redundant parentheses;',
  tooDeep: (levels: number) => `The document path has too many nesting levels; nesting levels: ${levels}`,
  indexOutOfRange: (digits: string) => `List index is not within the allowable range; index: [${digits}]`,
  reserved: (word: string) => `Attribute name is a reserved keyword; reserved keyword: ${word}`,
  unknownFunction: (name: string) => `Invalid function name; function: ${name}`,
  misusedFunction: (name: string) =>
    `The function is not allowed to be used this way in an expression; function: ${name}`,
  notInUpdate: (name: string) => `The function is not allowed in an update expression; function: ${name}`,
  undefinedName: (ref: string) =>
    `An expression attribute name used in the document path is not defined; attribute name: ${ref}`,
  undefinedValue: (ref: string) =>
    `An expression attribute value used in expression is not defined; attribute value: ${ref}`,
  operandCount: (name: string, count: number) =>
    `Incorrect number of operands for operator or function; operator or function: ${name}, number of operands: ${count}`,
  tooManyInOperands: (count: number) =>
    `The IN operator is provided with too many operands; number of operands: ${count}`,
  requiresPath: (name: string) =>
    `Operator or function requires a document path; operator or function: ${name}`,
  notDistinct: (operator: string, path: string) =>
    `The first operand must be distinct from the remaining operands for this operator or function; operator: ${operator}, first operand: ${path}`,
  operandType: (name: string, type: string) =>
    `Incorrect operand type for operator or function; operator or function: ${name}, operand type: ${type}`,
  clauseOperandType: (clause: 'ADD' | 'DELETE', type: string) =>
    `Incorrect operand type for operator or function; operator: ${clause}, operand type: ${type}`,
  invalidTypeName: (name: string) =>
    `Invalid attribute type name found; type: ${name}, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}`,
  betweenTypes: (lower: string, upper: string) =>
    `The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: ${lower}, upper bound operand: AttributeValue: ${upper}`,
  betweenOrder: (lower: string, upper: string) =>
    `The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: ${lower}, upper bound operand: AttributeValue: ${upper}`,
  repeatedClause: (clause: string) =>
    `The "${clause}" section can only be used once in an update expression;`,
  overlap: (one: string, two: string) =>
    `Two document paths overlap with each other; must remove or rewrite one of these paths; path one: ${one}, path two: ${two}`,
  conflict: (one: string, two: string) =>
    `Two document paths conflict with each other; must remove or rewrite one of these paths; path one: ${one}, path two: ${two}`,
} as const;

/** Runtime update errors (docs/dynamodb.md §5.3.3–5.3.5): no `Invalid UpdateExpression:` prefix. */
export const UpdateMessages = {
  missingAttribute: 'The provided expression refers to an attribute that does not exist in the item',
  invalidPath: 'The document path provided in the update expression is invalid for update',
  operandType: 'An operand in the update expression has an incorrect data type',
  legacyTypeMismatch: 'Type mismatch for attribute to update',
} as const;

/** A ValidationException for one expression: `Invalid <Kind>Expression: <message>`. */
export function expressionError(kind: ExpressionKind, message: string): ValidationException {
  return new ValidationException(`Invalid ${kind}Expression: ${message}`);
}

/** The type listed when attribute_type's second operand is not a value (docs/dynamodb.md §5.2.3). */
export const ANY_TYPE_SET = '{NS,SS,L,BS,N,M,B,BOOL,NULL,S}';

/** Long type names used by the ADD and DELETE operand checks (docs/dynamodb.md §5.3.3). */
export const LONG_TYPE_NAMES: Readonly<Record<AttributeType, string>> = {
  S: 'STRING',
  N: 'NUMBER',
  B: 'BINARY',
  BOOL: 'BOOLEAN',
  NULL: 'NULL',
  SS: 'STRING SET',
  NS: 'NUMBER SET',
  BS: 'BINARY SET',
  L: 'LIST',
  M: 'MAP',
};
