import { ValidationException } from '../errors/index.js';
import { type AttributeMap, getAttribute } from '../model/attributeValue.js';
import { encodeKeyValue, partitionScanKey, segmentBounds, segmentOf } from '../model/keyCodec.js';
import { defineOperation } from '../operation.js';
import type { ScanPosition } from '../store/itemStore.js';
import type { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import type { PreparedReadRequest } from '../validations/readRequest.js';
import { type ScanInput, scanShape, validateScan } from '../validations/scan.js';
import { tableKeyOf } from './query.js';
import { checkKeyPathsAreScalar } from './shared/keyPaths.js';
import { pageCapacity, pageOutput, readPage } from './shared/readPage.js';
import { withOptional } from './shared/writeSupport.js';

/**
 * Scan: the whole table (or one segment of it) in the service's hash order, one page at a time.
 * Pages resume from the start key's position in O(log n): items written between pages are seen
 * if they sort after it, and no item is skipped or repeated (spec §6.4.2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html
 */
export const scan = defineOperation({
  name: 'Scan',
  shape: scanShape,
  validate: validateScan,
  execute(context, input: ScanInput, prepared: PreparedReadRequest) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    if (input.IndexName !== undefined) {
      throw new ValidationException(`The table does not have the specified index: ${input.IndexName}`);
    }
    const after = input.ExclusiveStartKey ? scanPosition(input.ExclusiveStartKey, table) : undefined;
    let fromScanKey: string | undefined;
    let endScanKey: string | undefined;
    if (input.TotalSegments !== undefined && input.Segment !== undefined) {
      if (after && segmentOf(after.scanKey, input.TotalSegments) !== input.Segment) {
        throw new ValidationException(
          `The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: ${input.TotalSegments} Segment: ${input.Segment}`,
        );
      }
      const { first, end } = segmentBounds(input.Segment, input.TotalSegments);
      // Scan keys start with 6 hex digits: a 3-digit prefix bounds a range of 12-bit prefixes.
      fromScanKey = first.toString(16).padStart(3, '0');
      endScanKey = end >= 4096 ? undefined : end.toString(16).padStart(3, '0');
      if (first >= end) return emptyPage(input, table);
    }
    if (prepared.filter) checkKeyPathsAreScalar(prepared.filter.paths, table);
    if (prepared.projection) checkKeyPathsAreScalar(prepared.projection.paths, table);

    const countOnly = prepared.select === 'COUNT';
    const page = readPage(scanEntries(table, { after, fromScanKey, endScanKey }), {
      limit: input.Limit,
      filter: prepared.filter,
      projection: prepared.projection,
      countOnly,
    });
    return withOptional(
      pageOutput(page, countOnly),
      'ConsumedCapacity',
      pageCapacity(input.ReturnConsumedCapacity, table.name, page.bytesRead, input.ConsistentRead === true),
    );
  },
});

function emptyPage(input: ScanInput, table: Table) {
  const countOnly = input.Select === 'COUNT';
  const output = pageOutput(
    { items: [], count: 0, scannedCount: 0, lastEvaluatedKey: undefined, bytesRead: 0 },
    countOnly,
  );
  return withOptional(
    output,
    'ConsumedCapacity',
    pageCapacity(input.ReturnConsumedCapacity, table.name, 0, input.ConsistentRead === true),
  );
}

function* scanEntries(
  table: Table,
  options: { after?: ScanPosition; fromScanKey?: string; endScanKey?: string },
): Generator<{ item: StoredItem; key: () => AttributeMap }> {
  for (const entry of table.items.scan(options)) {
    yield { item: entry.item, key: () => tableKeyOf(table, entry.partition.hashKey, entry.rangeKey) };
  }
}

/** The scan position of an ExclusiveStartKey, which must be a well-formed table key (spec §6.4.1). */
function scanPosition(startKey: AttributeMap, table: Table): ScanPosition {
  const invalid = () =>
    new ValidationException(
      'The provided starting key is invalid: The provided key element does not match the schema',
    );
  const definitions = [table.key.hash, table.key.range].filter((definition) => definition !== undefined);
  if (Object.keys(startKey).length !== definitions.length) throw invalid();
  const encoded: string[] = [];
  for (const definition of definitions) {
    const value = getAttribute(startKey, definition.name) as Record<string, string> | undefined;
    const scalar = value?.[definition.type];
    if (scalar === undefined) throw invalid();
    encoded.push(encodeKeyValue(definition.type, scalar));
  }
  return { scanKey: partitionScanKey(table.key.hash.type, encoded[0]!), rangeKey: encoded[1] ?? '' };
}
