import { createRequire } from 'node:module';

/**
 * `sorted-btree` is CommonJS with `exports.default`. Loaded with `require`, not `import`: an ESM
 * import of a CommonJS file has Node lex its 74 KB for export names at every start
 * (bench/startup.ts), and `require` gives the same `module.exports` under Node, tsx and vitest.
 */
type BTreeClass = typeof import('sorted-btree').default;
const moduleExports = createRequire(import.meta.url)('sorted-btree') as { default?: BTreeClass };
export const BTree: BTreeClass = moduleExports.default ?? (moduleExports as unknown as BTreeClass);
export type BTree<K, V> = import('sorted-btree').default<K, V>;
