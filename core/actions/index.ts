import type { OperationDefinition } from '../operation.js';

/**
 * Every operation the engine answers, by wire name. One file per operation in this folder, with
 * its twin in `../validations/`.
 */
// biome-ignore lint/suspicious/noExplicitAny: definitions carry their own input/output types.
export const operations: Record<string, OperationDefinition<any, any>> = Object.assign(
  Object.create(null),
  {},
);
