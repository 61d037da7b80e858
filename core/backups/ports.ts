import type { AttributeMap } from '../model/attributeValue.js';
import type { StoredItem } from '../store/storedItem.js';
import type { ScannedItem } from '../store/storedItemScan.js';

/**
 * How backups, exports and imports reach the outside (docs/backups.md §6): core decides what is
 * exported and imported; `infra/backups/` implements these ports over an S3 bucket or a folder
 * (the archiver's object stores and manifest writer).
 */

/** One line of an incremental export: an item's net change in the window. */
export interface IncrementalRecord {
  /** Time of the last change, epoch ms (written as `WriteTimestampMicros`). */
  readonly at: number;
  readonly keys: AttributeMap;
  readonly newItem: StoredItem | undefined;
  readonly oldItem: StoredItem | undefined;
}

/** What an export writes: where, in which format, and the items or changes. */
export interface ExportJob {
  readonly exportArn: string;
  /** `<14 digits>-<8 hex>`, the folder under `AWSDynamoDB/`. */
  readonly exportId: string;
  readonly tableArn: string;
  readonly tableId: string;
  readonly bucket: string;
  readonly bucketOwner: string | undefined;
  readonly prefix: string | undefined;
  readonly sseAlgorithm: string | undefined;
  readonly sseKmsKeyId: string | undefined;
  readonly format: 'DYNAMODB_JSON' | 'ION';
  readonly exportType: 'FULL_EXPORT' | 'INCREMENTAL_EXPORT';
  /** Epoch ms. */
  readonly startTime: number;
  readonly exportTime: number;
  readonly exportFromTime?: number;
  readonly exportToTime?: number;
  readonly viewType?: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES';
  /** FULL_EXPORT: the table's items at the export time. */
  readonly items?: Iterable<StoredItem>;
  /** INCREMENTAL_EXPORT: the net changes of the window. */
  readonly changes?: Iterable<IncrementalRecord>;
  /** Called as items are written (progress). */
  readonly onProgress?: (written: number) => void;
}

export interface ExportResult {
  readonly itemCount: number;
  readonly billedSizeBytes: number;
  /** Key of `manifest-summary.json` (ExportManifest). */
  readonly manifestKey: string;
  readonly endTime: number;
}

/** A failure the export or import reports (FailureCode, FailureMessage). */
export class DataTransferFailure extends Error {
  override readonly name = 'DataTransferFailure';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Writes exports (an S3 bucket or a folder). */
export interface ExportTarget {
  /** Rejects with a `DataTransferFailure` (e.g. `S3NoSuchBucket`) when it cannot be written. */
  write(job: ExportJob): Promise<ExportResult>;
}

/** What ImportTable reads. */
export interface ImportRequest {
  readonly bucket: string;
  readonly bucketOwner: string | undefined;
  readonly prefix: string | undefined;
  readonly format: 'DYNAMODB_JSON' | 'ION' | 'CSV';
  readonly compression: 'GZIP' | 'ZSTD' | 'NONE';
  readonly csv?: { delimiter?: string; headerList?: string[] };
  /** Key attributes and their types: CSV columns of these names are typed, others are strings. */
  readonly keyTypes: ReadonlyMap<string, 'S' | 'N' | 'B'>;
  /**
   * The table's key attributes (the values a line in the stored form is read with); undefined
   * when the table has secondary indexes, whose keys only the general path checks: its lines are
   * not scanned for the stored form at all (`importStored` would decline every one).
   */
  readonly tableKeys: readonly string[] | undefined;
}

/**
 * One source line: an item in DynamoDB JSON (not yet validated), an item recognised in eddy's
 * stored form (`storedItemScan.ts`: checked but for the table's key), or why it could not be read.
 */
export type ImportLine =
  | {
      readonly item: Record<string, unknown>;
      readonly stored?: undefined;
      readonly error?: undefined;
      readonly line: number;
    }
  | {
      readonly item?: undefined;
      readonly stored: ScannedItem;
      readonly error?: undefined;
      readonly line: number;
    }
  | { readonly item?: undefined; readonly stored?: undefined; readonly error: string; readonly line: number };

/** A chunk of one source object's lines, with the bytes it covered. */
export interface ImportChunk {
  readonly objectKey: string;
  /** Uncompressed bytes read (`ProcessedSizeBytes` counts the source before decompression). */
  readonly bytes: number;
  readonly lines: readonly ImportLine[];
}

/** Reads import sources (an S3 bucket or a folder). */
export interface ImportSource {
  /** Rejects (or the iteration throws) a `DataTransferFailure` such as `S3NoSuchBucket`. */
  read(request: ImportRequest): AsyncIterable<ImportChunk>;
}
