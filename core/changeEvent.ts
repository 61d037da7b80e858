import type { AttributeMap, Item } from './model/attributeValue.js';
import { itemSize } from './model/itemSize.js';
import { rememberStored } from './store/storedImages.js';
import type { StoredItem } from './store/storedItem.js';

/**
 * What the commit point emits for every item a committed write changed (docs/architecture.md §2.4): one event
 * per changed item, none for a write that changed nothing, in commit order. `streams/` builds
 * DynamoDB Streams records from these; the gsi-maintainer consumes them as NEW_AND_OLD_IMAGES.
 */
export type ChangeEventName = 'INSERT' | 'MODIFY' | 'REMOVE';

/** The identity DynamoDB's TTL process writes as (docs/streams-and-lambda.md §1.2.8). */
export interface ServiceIdentity {
  readonly type: 'Service';
  readonly principalId: 'dynamodb.amazonaws.com';
}

export const TTL_PRINCIPAL: ServiceIdentity = Object.freeze({
  type: 'Service',
  principalId: 'dynamodb.amazonaws.com',
});

/** Which table a change happened in. */
export interface TableRef {
  readonly accountId: string;
  readonly region: string;
  readonly tableName: string;
  readonly tableId: string;
  readonly tableArn: string;
}

export class ChangeEvent {
  private keysBytes: number | undefined;

  constructor(
    /** Engine-wide commit sequence number: strictly increasing in commit order. */
    readonly sequence: number,
    /** Events of one transaction share a commit id. */
    readonly commitId: number,
    readonly table: TableRef,
    readonly eventName: ChangeEventName,
    /** The item's key attributes. */
    readonly keys: AttributeMap,
    /** Encoded key (partition ‖ sort): equal for every change of one item. */
    readonly itemKey: string,
    readonly oldItem: StoredItem | undefined,
    readonly newItem: StoredItem | undefined,
    /** Commit time, epoch milliseconds from the engine's clock. */
    readonly at: number,
    readonly userIdentity: ServiceIdentity | undefined,
  ) {}

  /**
   * The item before the change, decoded afresh on each read: events live as long as the change
   * log keeps them (24 h), and a cached copy would live as long.
   */
  get oldImage(): Item | undefined {
    return this.oldItem ? decodeRemembered(this.oldItem) : undefined;
  }

  /** The item after the change, decoded afresh on each read (see `oldImage`). */
  get newImage(): Item | undefined {
    return this.newItem ? decodeRemembered(this.newItem) : undefined;
  }

  /** Size of `keys` by the item-size rules (computed on first use). */
  get keysSize(): number {
    this.keysBytes ??= itemSize(this.keys);
    return this.keysBytes;
  }

  /** Keys + NewImage + OldImage sizes: the StreamRecord SizeBytes of a NEW_AND_OLD_IMAGES view. */
  get sizeBytes(): number {
    return this.keysSize + (this.oldItem?.size ?? 0) + (this.newItem?.size ?? 0);
  }
}

export type ChangeListener = (event: ChangeEvent) => void;

/** Decodes a stored item and remembers where the copy came from (see `storedImages.ts`). */
function decodeRemembered(stored: StoredItem): Item {
  const image = stored.decode();
  rememberStored(image, stored);
  return image;
}
