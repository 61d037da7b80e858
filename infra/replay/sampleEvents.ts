import { DescribeTableCommand, type DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { ChangeEventName } from '../../core/changeEvent.js';
import {
  type AttributeMap,
  getAttribute,
  newAttributeMap,
  setAttribute,
} from '../../core/model/attributeValue.js';
import { itemSize } from '../../core/model/itemSize.js';
import type { StreamViewType } from '../../core/store/table.js';
import { eventIdOf, saltOf } from '../../streams/ids.js';
import { formatSequenceNumber } from '../../streams/sequenceNumber.js';
import { showsNewImage, showsOldImage } from '../../streams/streamView.js';
import { wireMap } from './wireAttributes.js';

export interface SampleEventOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** Which change every record describes (default INSERT). */
  readonly eventName?: ChangeEventName;
  /** Most items to take (default 10). */
  readonly limit?: number;
  /** The view type (default: the table's stream's, else NEW_AND_OLD_IMAGES). */
  readonly viewType?: StreamViewType;
  /** The records' time, epoch ms (default now). */
  readonly now?: number;
}

export interface SampleEvent {
  readonly event: DynamoDBStreamEvent;
  readonly viewType: StreamViewType;
  readonly streamArn: string;
  readonly notes: readonly string[];
}

/**
 * A DynamoDB stream event for Lambda made from a table's real items, as
 * `sam local generate-event dynamodb update` makes one from sample data
 * (https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/using-sam-cli-local-generate-event.html):
 * the items come from a Scan, the keys from DescribeTable's KeySchema, the images from the event
 * name and the view type (docs/streams-and-lambda.md §1.2.3), SizeBytes from the item-size rules
 * (docs/streams-and-lambda.md §1.2.7), eventIDs and sequence numbers in eddy's formats
 * (docs/streams-and-lambda.md §1.1.5, §1.2.6) and the ARN of the table's stream
 * (docs/streams-and-lambda.md §1.1.7). The result feeds `eddy invoke --events` and `sam local invoke -e`
 * alike.
 *
 * Images per event name: INSERT has the item as NewImage; REMOVE has it as OldImage; MODIFY has
 * it as NewImage and, as OldImage, the item holding only its key, the change of an item created
 * with its key alone and then given its attributes (docs/streams-and-lambda.md §1.3.4): two different images,
 * as every real MODIFY has (docs/streams-and-lambda.md §1.3.3). Edit the file to model another change.
 *
 * @example
 * ```ts
 * const { event } = await sampleEvent({ client, tableName: 'Orders', eventName: 'MODIFY', limit: 3 });
 * event.Records.length; // up to 3
 * ```
 */
export async function sampleEvent(options: SampleEventOptions): Promise<SampleEvent> {
  const { client, tableName } = options;
  const now = options.now ?? Date.now();
  const notes: string[] = [];
  const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const tableArn = table?.TableArn ?? `arn:aws:dynamodb:us-east-1:000000000000:table/${tableName}`;
  const region = tableArn.split(':')[3] ?? 'us-east-1';
  const keyNames = [...(table?.KeySchema ?? [])]
    .sort((a, b) => (a.KeyType === b.KeyType ? 0 : a.KeyType === 'HASH' ? -1 : 1))
    .map((element) => element.AttributeName!);
  const streamSpecification = table?.StreamSpecification;
  const tableViewType =
    streamSpecification?.StreamEnabled === true
      ? (streamSpecification.StreamViewType as StreamViewType)
      : undefined;
  const viewType = options.viewType ?? tableViewType ?? 'NEW_AND_OLD_IMAGES';
  if (options.viewType === undefined && tableViewType === undefined)
    notes.push(`table ${tableName} has no stream: records are NEW_AND_OLD_IMAGES (choose with --view-type)`);
  let streamArn = table?.LatestStreamArn;
  if (streamArn === undefined || tableViewType === undefined) {
    // The ARN a stream enabled now would get (docs/streams-and-lambda.md §1.1.7: the label is its creation
    // time).
    streamArn = `${tableArn}/stream/${new Date(now).toISOString().replace('Z', '')}`;
  }
  const items = await scanItems(client, tableName, options.limit ?? 10);
  const eventName = options.eventName ?? 'INSERT';
  const salt = saltOf(streamArn);
  const Records = items.map((item, index) =>
    sampleRecord(item, keyNames, {
      eventName,
      viewType,
      region,
      streamArn: streamArn!,
      now,
      salt,
      ordinal: index + 1,
    }),
  );
  return { event: { Records }, viewType, streamArn, notes };
}

async function scanItems(client: DynamoDBClient, tableName: string, limit: number): Promise<AttributeMap[]> {
  const items: AttributeMap[] = [];
  let start: Record<string, unknown> | undefined;
  while (items.length < limit) {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        Limit: Math.min(1000, limit - items.length),
        ...(start === undefined ? {} : { ExclusiveStartKey: start as never }),
      }),
    );
    for (const item of page.Items ?? []) items.push(wireMap(item));
    start = page.LastEvaluatedKey;
    if (start === undefined) break;
  }
  return items.slice(0, limit);
}

interface RecordFacts {
  readonly eventName: ChangeEventName;
  readonly viewType: StreamViewType;
  readonly region: string;
  readonly streamArn: string;
  readonly now: number;
  readonly salt: Uint32Array;
  readonly ordinal: number;
}

/**
 * One record of a sample event; members in the order Lambda delivers them
 * (docs/streams-and-lambda.md §2.2.2).
 */
export function sampleRecord(
  item: AttributeMap,
  keyNames: readonly string[],
  facts: RecordFacts,
): DynamoDBRecord {
  const keys = newAttributeMap();
  for (const name of keyNames) {
    const value = getAttribute(item, name);
    if (value !== undefined) setAttribute(keys, name, value);
  }
  const { eventName, viewType } = facts;
  const newImage = eventName === 'REMOVE' ? undefined : item;
  const oldImage = eventName === 'INSERT' ? undefined : eventName === 'MODIFY' ? keys : item;
  const body: Record<string, unknown> = {
    ApproximateCreationDateTime: Math.floor(facts.now / 1000),
    Keys: keys,
  };
  let size = itemSize(keys);
  if (newImage !== undefined && showsNewImage(viewType)) {
    body.NewImage = newImage;
    size += itemSize(newImage);
  }
  if (oldImage !== undefined && showsOldImage(viewType)) {
    body.OldImage = oldImage;
    size += itemSize(oldImage);
  }
  body.SequenceNumber = formatSequenceNumber(facts.ordinal);
  body.SizeBytes = size;
  body.StreamViewType = viewType;
  return {
    eventID: eventIdOf(facts.salt, facts.ordinal),
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: facts.region,
    dynamodb: body,
    eventSourceARN: facts.streamArn,
  } as DynamoDBRecord;
}
