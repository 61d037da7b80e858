import { ValidationException } from '../errors/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { segmentBounds, segmentOf } from '../model/keyCodec.js';
import { defineOperation } from '../operation.js';
import type { ScanPosition } from '../store/itemStore.js';
import type { StoredItem } from '../store/storedItem.js';
import type { PreparedReadRequest } from '../validations/readRequest.js';
import { type ScanInput, scanShape, validateScan } from '../validations/scan.js';
import { checkKeyPathsAreScalar } from './shared/keyPaths.js';
import { pageCapacity, pageOutput, readPage } from './shared/readPage.js';
import {
  checkProjectionSupport,
  checkStartKeyShape,
  type ReadTarget,
  resolveReadTarget,
  tableItemOf,
} from './shared/readTarget.js';
import { withOptional } from './shared/writeSupport.js';

/**
 * Scan: the whole table or index (or one segment of it) in the service's hash order, one page at
 * a time. Pages resume from the start key's position in O(log n): items written between pages are
 * seen if they sort after it, and no item is skipped or repeated (spec §6.4.2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html
 */
export const scan = defineOperation({
  name: 'Scan',
  shape: scanShape,
  validate: validateScan,
  execute(context, input: ScanInput, prepared: PreparedReadRequest) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    const target = resolveReadTarget(table, input.IndexName, input.ConsistentRead);
    let after: ScanPosition | undefined;
    if (input.ExclusiveStartKey) {
      const invalid =
        'The provided starting key is invalid: The provided key element does not match the schema';
      checkStartKeyShape(target, input.ExclusiveStartKey, { count: invalid, type: invalid });
      const position = target.positionOf(input.ExclusiveStartKey);
      after = { scanKey: target.scanKeyOf(position.hashKey), rangeKey: position.rangeKey };
    }
    let fromScanKey: string | undefined;
    let endScanKey: string | undefined;
    const countOnly = (prepared.select ?? '') === 'COUNT';
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
      if (first >= end) endScanKey = fromScanKey;
    }
    if (prepared.filter) checkKeyPathsAreScalar(prepared.filter.paths, table);
    if (prepared.projection) checkKeyPathsAreScalar(prepared.projection.paths, table);
    const { fetchFromTable } = checkProjectionSupport(
      target,
      prepared.select,
      prepared.projection?.paths.map((path) => path[0]),
    );

    const page = readPage(scanEntries(target, { after, fromScanKey, endScanKey }, fetchFromTable), {
      limit: input.Limit,
      filter: prepared.filter,
      projection: prepared.projection,
      countOnly,
    });
    return withOptional(
      pageOutput(page, countOnly),
      'ConsumedCapacity',
      pageCapacity(
        input.ReturnConsumedCapacity,
        table.name,
        page.bytesRead,
        input.ConsistentRead === true,
        target.index ? { name: target.index.name, kind: target.index.kind } : undefined,
      ),
    );
  },
});

function* scanEntries(
  target: ReadTarget,
  options: { after?: ScanPosition; fromScanKey?: string; endScanKey?: string },
  fetchFromTable: boolean,
): Generator<{ item: StoredItem; key: () => AttributeMap }> {
  for (const entry of target.store.scan(options)) {
    yield {
      item: fetchFromTable ? tableItemOf(target, entry.item) : entry.item,
      key: () => target.lastKeyOf(entry.partition.hashKey, entry.rangeKey, entry.item),
    };
  }
}
