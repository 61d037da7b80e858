import sortedBTree from 'sorted-btree';

/**
 * `sorted-btree` is CommonJS with `exports.default`: under Node's ESM rules the default import is
 * the whole `module.exports`. Resolve the class either way so tsx, vitest and esbuild agree.
 */
type BTreeClass = typeof import('sorted-btree').default;
const moduleExports = sortedBTree as unknown as { default?: BTreeClass };
export const BTree: BTreeClass = moduleExports.default ?? (sortedBTree as unknown as BTreeClass);
export type BTree<K, V> = import('sorted-btree').default<K, V>;
