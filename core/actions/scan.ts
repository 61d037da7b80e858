import { ValidationException } from '../errors/index.js';
import { segmentBounds, segmentOf } from '../model/keyCodec.js';
import { defineOperation } from '../operation.js';
import type { ScanPosition } from '../store/itemStore.js';
import type { PreparedReadRequest } from '../validations/readRequest.js';
import { type ScanInput, scanShape, validateScan } from '../validations/scan.js';
import { checkKeyPathsAreScalar } from './shared/keyPaths.js';
import { answerPage, type PageEntry } from './shared/readPage.js';
import {
  checkReadProjection,
  checkSelectAllOnGlobalIndex,
  checkStartKeyCount,
  checkStartKeyPiece,
  checkStartKeyTablePart,
  pageEntry,
  type ReadTarget,
  resolveReadTarget,
} from './shared/readTarget.js';

/**
 * Scan: the whole table or index (or one segment of it) in the service's hash order, one page at
 * a time. Pages resume from the start key's position in O(log n): items written between pages are
 * seen if they sort after it, and no item is skipped or repeated (docs/dynamodb.md §6.4.2).
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
    const startKey = input.ExclusiveStartKey;
    if (startKey) {
      // As Query checks it (docs/dynamodb.md §6.4.1): the newer framework answers Scan with the
      // same short texts (2026); the older one added `: The provided key element does not match
      // the schema` on tables.
      checkStartKeyCount(target, startKey);
      checkStartKeyPiece(startKey, target.key.hash, true);
      if (target.key.range) checkStartKeyPiece(startKey, target.key.range, false);
    }
    checkSelectAllOnGlobalIndex(target, prepared.select);
    if (startKey) {
      checkStartKeyTablePart(target, startKey);
      const position = target.positionOf(startKey);
      after = { scanKey: target.scanKeyOf(position.hashKey), rangeKey: position.rangeKey };
    }
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
      if (first >= end) endScanKey = fromScanKey;
    }
    if (prepared.filter) checkKeyPathsAreScalar(prepared.filter.paths, table);
    const { fetchFromTable } = checkReadProjection(target, prepared);

    return answerPage(
      target,
      input,
      prepared,
      scanEntries(target, { after, fromScanKey, endScanKey }, fetchFromTable),
      { governor: context.engine.capacity },
    );
  },
});

function* scanEntries(
  target: ReadTarget,
  options: { after?: ScanPosition; fromScanKey?: string; endScanKey?: string },
  fetchFromTable: boolean,
): Generator<PageEntry> {
  for (const entry of target.store.scan(options)) {
    yield pageEntry(target, entry.partition.hashKey, entry.rangeKey, entry.item, fetchFromTable);
  }
}
