import { ValidationException } from '../errors/index.js';
import type { Position } from './ast.js';

/**
 * The service's PartiQL messages, verbatim (docs/partiql.md §5 lists each with its source). A
 * statement the parser cannot read answers `Statement wasn't well formed, can't be processed: `
 * and a detail; a few carry the token's place as `at <line>:<column>:<length>`.
 */
export const PartiqlMessages = {
  malformed: (detail: string) => `Statement wasn't well formed, can't be processed: ${detail}`,
  leftover: 'Unexpected token after expression',
  unexpectedTerm: 'Unexpected term',
  unexpectedKeyword: 'Unexpected keyword',
  unexpectedOperator: 'Unexpected operator',
  missingRightHandSide: 'Missing right-hand side expression of infix operator',
  expectedIdentifier: 'Expected identifier for simple path',
  expectedTypeName: 'Expected type name',
  invalidDotComponent: 'Invalid path dot component',
  expectedDataManipulation: 'Expected data manipulation',
  aliasing: 'Aliasing is not supported',
  unsupportedOperation: (name: string) => `Unsupported operation: ${name}`,
  unexpectedPathComponent: 'Unexpected path component',
  unrecognizedFunction: (name: string) => `Unrecognized function: ${name}`,
  keyEquality: 'Where clause does not contain a mandatory equality on all key attributes',
  overlapping: 'Overlapping conditions with range keys are not supported in where clause',
  parameterCount: "Number of parameters in request and statement don't match.",
  keyMissingInItem: (name: string) => `Key attribute should be present in the item: Key ${name}`,
  keyTypeMismatch: (name: string) =>
    `Key attribute's data type should match its data type in table's schema: Key ${name}`,
  keyValueType: (name: string, type: string) =>
    `Key value must be of type S, N, or B. Key name: ${name}, Key type: ${type}`,
  duplicateTupleKey: (name: string) => `Duplicate keys in tuple. Key: ${name} under root`,
  unsupportedDataType: (name: string) => `Unsupported data type: ${name} under key root`,
  insertNotTuple:
    'Unsupported format in item expression. Please use struct format {...} to express item values for insert statement.',
  emptyBag: 'Empty bags are not supported',
  duplicates: (members: string) =>
    `One or more parameter values were invalid: Input collection [${members}] contains duplicates.`,
  returningInInsert: 'RETURNING is not supported in INSERT',
  returningInDelete: (mode: string) =>
    `Invalid returning clause: RETURNING ${mode} *. Only RETURNING ALL OLD * is allowed in DELETE statements.`,
  returningInTransaction: 'RETURNING clause is not supported in ExecuteTransaction.',
  existsOutsideTransaction: 'EXISTS can only be used in ExecuteTransaction write requests.',
  existsNeedsCondition: 'EXISTS() must contain a single item read with additional condition',
  orderByNeedsWhere: 'Must have WHERE clause in the statement when using ORDER BY clause.',
  orderByNeedsHash:
    'Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.',
  unsupportedClause: (clause: string) => `Unsupported clause: ${clause}`,
  batchSelectKey:
    'Select statements within BatchExecuteStatement must specify the primary key in the where clause.',
  transactionSelectKey:
    'Select statements within ExecuteTransaction must specify the primary key in the where clause.',
  transactionIndexRead: 'Reads on indices are not supported within transactions.',
  transactionFailed: (index: number, message: string) =>
    `Validation failed in TransactStatements[${index}]: ${message}`,
  transactionMixed:
    'ExecuteTransaction API does not support both read and write operations in the same request.',
  batchMixed: 'Read and write requests together in the same batch is not supported.',
  duplicateItem: 'Duplicate primary key exists in table',
  invalidNextToken: 'Invalid NextToken',
  nextTokenMismatch: 'NextToken does not match request',
  nextTokenExpired: 'Given NextToken has already expired',
  setFunctionArity: (name: string) => `${name} must have exactly two arguments`,
  setFunctionFirst: (name: string) => `The first argument to ${name} must equal the assignment value`,
  setFunctionSecond: (name: string) => `The second argument to ${name} must be a value with type SET`,
  emptyPathComponent: 'Path component cannot be an empty string',
  tooManyFromComponents: 'A path may contain at most 2 components in the FROM clause',
  singleTableName: 'FROM clause may only contain a single table name',
  writeOnIndex: 'This operation is not supported on an index',
  noSuchIndex: 'The table does not have the specified index',
  consistentReadOnGsi: 'Strongly consistent read is not supported on Global Secondary Indexes',
  unprojectedFilter: (index: string, names: readonly string[]) =>
    `One or more parameter values were invalid: Secondary index ${index} does not project one or more filter attributes: [${names.join(', ')}]`,
  unsupportedExpression: 'Unsupported expression in statement',
  tooDeep: 'Expression nesting is too deep',
} as const;

/** `at 1:8:16`: where a token sits, as the service prints it. */
export function at(position: Position): string {
  return `at ${position.line}:${position.column}:${position.length}`;
}

/** A ValidationException for a statement the parser cannot read. */
export function malformed(detail: string): ValidationException {
  return new ValidationException(PartiqlMessages.malformed(detail));
}

/** A ValidationException naming a token's place. */
export function positioned(message: string, position: Position): ValidationException {
  return new ValidationException(`${message} ${at(position)}`);
}
