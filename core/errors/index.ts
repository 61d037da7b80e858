export * from './DynamoDbError.js';
export * from './exceptions.js';
