import type { OperationDefinition } from '../operation.js';
import { deleteItem } from './deleteItem.js';
import { getItem } from './getItem.js';
import { putItem } from './putItem.js';
import { updateItem } from './updateItem.js';

/**
 * Every operation the engine answers, by wire name. One file per operation in this folder, with
 * its twin in `../validations/`. Add an operation: import it above and list it below.
 */
// biome-ignore lint/suspicious/noExplicitAny: each definition carries its own input/output types.
const definitions: OperationDefinition<any, any, any>[] = [putItem, getItem, updateItem, deleteItem];

// biome-ignore lint/suspicious/noExplicitAny: see above.
export const operations: Record<string, OperationDefinition<any, any, any>> = Object.create(null);
for (const definition of definitions) operations[definition.name] = definition;
