import type { Engine } from '../engine.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { storedOf } from '../store/storedImages.js';
import type { IndexView } from './indexChange.js';
import { indexView, putEntry, removeEntry, tableByArn } from './maintenance.js';

/**
 * The engine's index-writer port, handed to the gsi-maintainer function (which decides what
 * changes; this only finds the index and stores or removes the entry). Structurally it is the
 * `IndexWriter` of `functions/shared/ports.ts`.
 */
export class GlobalIndexWriter {
  constructor(private readonly engine: Engine) {}

  globalIndexes(tableArn: string): readonly IndexView[] {
    const table = tableByArn((account, region) => this.engine.region(account, region), tableArn);
    if (table === undefined) return [];
    const views: IndexView[] = [];
    for (const index of table.globalSecondaryIndexes.values()) {
      if (index.status !== 'DELETING') views.push(indexView(index, table));
    }
    return views;
  }

  put(tableArn: string, indexName: string, image: AttributeMap): void {
    const found = this.find(tableArn, indexName);
    if (found) putEntry(found.table, found.index, image, storedOf(image));
  }

  remove(tableArn: string, indexName: string, image: AttributeMap): void {
    const found = this.find(tableArn, indexName);
    if (found) removeEntry(found.table, found.index, image);
  }

  private find(tableArn: string, indexName: string) {
    const table = tableByArn((account, region) => this.engine.region(account, region), tableArn);
    const index = table?.globalSecondaryIndexes.get(indexName);
    return table && index ? { table, index } : undefined;
  }
}
