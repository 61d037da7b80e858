import type { Engine } from '../engine.js';
import { DynamoDbError } from '../errors/index.js';
import { MAX_ITEM_SIZE } from '../model/itemSize.js';
import { type AttributeProblems, parseAttributeMap } from '../model/parseAttributeValue.js';
import { encodeParsedItemSized } from '../store/itemCodec.js';
import type { Region } from '../store/region.js';
import { StoredItem } from '../store/storedItem.js';
import type { ScannedItem } from '../store/storedItemScan.js';
import type { Table } from '../store/table.js';
import { checkIndexKeys, type ExtractedKey, extractItemKey } from '../validations/keys.js';
import type { TransferRecord } from './dataProtection.js';
import { nextTurn } from './fill.js';
import { DataTransferFailure, type ImportLine, type ImportRequest } from './ports.js';

/**
 * Runs an import (docs/backups.md §4): reads the source through the import port, checks each
 * item as a PutItem would (attribute values, key attributes and types, index keys, size), and
 * commits it into the new table; an item recognised in eddy's stored form comes checked already
 * (docs/backups.md §4.2). An item that fails its checks is counted (`ErrorCount`) and logged,
 * and the import goes on; the reader has already given up on an object at its first line that
 * is no item (docs/backups.md §4.3). An import with errors ends FAILED (ItemValidationError)
 * with its good items kept, and a missing bucket fails it and removes the table: both measured
 * against AWS in scylladb/scylladb test/alternator/test_import.py (test_invalid_items,
 * test_missing_bucket_fails_the_import).
 */
export async function runImport(
  engine: Engine,
  region: Region,
  table: Table,
  record: TransferRecord,
  request: ImportRequest,
): Promise<void> {
  const protection = engine.dataProtection;
  const description = record.description;
  const counts = { processed: 0, imported: 0, errors: 0, bytes: 0 };
  // The counters appear once the import ends: the service's stay 0 while it runs, and
  // ProcessedSizeBytes is absent until something was read (measured: docs/backups.md §4.3).
  const publish = () =>
    Object.assign(description, {
      ...(counts.bytes > 0 ? { ProcessedSizeBytes: counts.bytes } : {}),
      ProcessedItemCount: counts.processed,
      ImportedItemCount: counts.imported,
      ErrorCount: counts.errors,
    });
  try {
    const source = protection.importSource;
    if (source === undefined)
      throw new DataTransferFailure('UNKNOWN', 'eddy has no import source configured');
    let sliceStart = performance.now();
    for await (const chunk of source.read(request)) {
      counts.bytes += chunk.bytes;
      for (const line of chunk.lines) {
        counts.processed++;
        const problem = importLine(engine, region, table, line);
        if (problem === undefined) counts.imported++;
        else {
          counts.errors++;
          protection.log(`import ${record.arn}: ${chunk.objectKey} line ${line.line}: ${problem}`);
        }
      }
      if (performance.now() - sliceStart > 4) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    publish();
    Object.assign(
      description,
      counts.errors === 0
        ? { ImportStatus: 'COMPLETED' }
        : {
            ImportStatus: 'FAILED',
            FailureCode: 'ItemValidationError',
            FailureMessage:
              'Some of the items failed validation checks and were not imported. Please check CloudWatch error logs for more details.',
          },
    );
  } catch (error) {
    publish();
    const code = error instanceof DataTransferFailure ? error.code : 'UNKNOWN';
    Object.assign(description, {
      ImportStatus: 'FAILED',
      FailureCode: code,
      FailureMessage: error instanceof Error ? error.message : String(error),
    });
    if (code === 'S3NoSuchBucket' && region.tables.get(table.name) === table) {
      region.tables.delete(table.name);
      engine.tableChanged(region, table, 'deleted');
    }
  }
  description.EndTime = engine.clock.now() / 1000;
  if (region.tables.get(table.name) === table) {
    if (table.status === 'CREATING') table.status = 'ACTIVE';
    engine.tableChanged(region, table, 'updated');
  }
  protection.changed();
}

/** Commits one line's item; answers why it could not be imported, or undefined. */
function importLine(engine: Engine, region: Region, table: Table, line: ImportLine): string | undefined {
  if (line.error !== undefined) return line.error;
  if (line.stored !== undefined && importStored(engine, region, table, line.stored)) return undefined;
  try {
    const problems: AttributeProblems = { first: undefined, firstKey: undefined };
    const raw = line.item ?? (JSON.parse(line.stored!.json) as Record<string, unknown>);
    const item = parseAttributeMap(raw, 'field', problems);
    if (problems.first !== undefined) return problems.first;
    const key = extractItemKey(item, table.key);
    checkIndexKeys(item, table);
    // As PutItem does (core/validations/putItem.ts): parseAttributeMap's map is canonical; its
    // text and size come from one walk.
    const { json, size } = encodeParsedItemSized(item);
    if (size > MAX_ITEM_SIZE) return 'Item size has exceeded the maximum allowed size';
    const next = new StoredItem(json, size);
    engine.commit(region, table, [
      { key, previous: table.items.get(key.hashKey, key.rangeKey), next, nextItem: item },
    ]);
    return undefined;
  } catch (error) {
    if (error instanceof DynamoDbError) return error.message;
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Commits an item recognised in the stored form (`storedItemScan.ts`): checked already but for its
 * key, and its text is the stored text. A table with secondary indexes, or a key that fails its
 * checks, takes the general path (false), which words the error.
 */
function importStored(engine: Engine, region: Region, table: Table, stored: ScannedItem): boolean {
  if (table.globalSecondaryIndexes.size > 0 || table.localSecondaryIndexes.size > 0) return false;
  let key: ExtractedKey;
  try {
    key = extractItemKey(stored.keys, table.key);
  } catch {
    return false;
  }
  engine.commit(region, table, [
    {
      key,
      previous: table.items.get(key.hashKey, key.rangeKey),
      next: new StoredItem(stored.json, stored.size),
    },
  ]);
  return true;
}
