export * from './backupExceptions.js';
export * from './DynamoDbError.js';
export * from './exceptions.js';
