export * from './DynamoDbError.js';
export * from './exceptions.js';
export * from './backupExceptions.js';
