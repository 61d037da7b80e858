import { describe, expect, it } from 'vitest';
import { ItemStore } from '../../../core/store/itemStore.js';
import { StoredItem } from '../../../core/store/storedItem.js';

const item = (text: string) => new StoredItem(JSON.stringify({ v: { S: text } }), text.length + 1);
const scanned = (store: ItemStore) => [...store.scan()].map((entry) => entry.partition.hashKey);

describe('ItemStore partitions awaiting scan order', () => {
  it('places only live partitions, whatever was deleted or re-created meanwhile', () => {
    const store = new ItemStore(false);
    for (const key of ['c', 'a', 'b', 'd']) store.set(key, '', item(key));
    store.delete('b');
    store.delete('d');
    store.set('d', '', item('d again'));
    expect(store.unplacedCount).toBe(3);
    expect(scanned(store)).toEqual(['a', 'c', 'd']);
    expect(store.unplacedCount).toBe(0);
    expect(store.get('d')?.json).toBe(item('d again').json);
  });

  it('places pending partitions a few at a time, counting only live ones', () => {
    const store = new ItemStore(true);
    for (let i = 0; i < 10; i++) store.set(`k${i}`, 'r', item(String(i)));
    store.delete('k0', 'r');
    store.delete('k1', 'r');
    store.placePending(3);
    expect(store.unplacedCount).toBe(5);
    store.delete('k9', 'r');
    expect(store.unplacedCount).toBe(4);
    store.placePending(100);
    expect(store.unplacedCount).toBe(0);
    expect(scanned(store)).toEqual(['k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8']);
  });

  it('keeps a bounded backlog when keys churn between scans', () => {
    const store = new ItemStore(false);
    for (let i = 0; i < 50_000; i++) {
      store.set(`key${i}`, '', item('x'));
      if (i % 100 !== 0) store.delete(`key${i}`);
    }
    expect(store.unplacedCount).toBe(500);
    const backlog = (store as unknown as { unplaced: unknown[] }).unplaced.length;
    expect(backlog).toBeLessThan(5_000);
    expect(scanned(store)).toHaveLength(500);
    expect(store.size).toBe(500);
  });
});
