/**
 * What `bench/workload.ts` measures: the tables (one per configuration: the same table with and
 * without each feature), the project config `eddy serve` runs them from, and the requests of each
 * workload as patchable templates (bench/loadGenerator.ts).
 */
import { jsonRequest, type RequestTemplate } from './loadGenerator.js';

export const TABLE = 'Bench';

/** The features a configuration adds to the bare table. */
export const CONFIGURATIONS = ['none', 'gsi1', 'gsi2', 'stream', 'nottl', 'all'] as const;
export type Configuration = (typeof CONFIGURATIONS)[number];

export const CONFIGURATION_TITLES: Record<Configuration, string> = {
  none: 'no GSI, no stream',
  gsi1: '1 GSI (ALL)',
  gsi2: '2 GSIs (KEYS_ONLY, INCLUDE)',
  stream: 'stream + no-op handler',
  nottl: '2 GSIs + stream + handler (all without TTL)',
  all: '2 GSIs + stream + handler + TTL',
};

/** Whether a configuration's table has a stream with the no-op handler bound to it. */
const isStreamed = (configuration: Configuration) =>
  configuration === 'stream' || configuration === 'nottl' || configuration === 'all';

/** The configurations dynalite can run too (GSIs; it keeps no stream records and runs no handler). */
export const DYNALITE_CONFIGURATIONS: readonly Configuration[] = ['none', 'gsi1', 'gsi2'];
/** The dynalite configuration that does the index work of an eddy configuration. */
export const DYNALITE_PEER: Partial<Record<Configuration, Configuration>> = {
  gsi1: 'gsi1',
  gsi2: 'gsi2',
  nottl: 'gsi2',
  all: 'gsi2',
};

/** ByGroup: every item is in it, keyed by its group and rank. */
const BY_GROUP_KEYS = [
  { AttributeName: 'grp', KeyType: 'HASH' },
  { AttributeName: 'rank', KeyType: 'RANGE' },
] as const;
/** ByEmail: an item's email, with two of its attributes projected. */
const BY_EMAIL = {
  IndexName: 'ByEmail',
  KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
  Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['plan', 'visits'] },
} as const;

function globalIndexes(configuration: Configuration) {
  switch (configuration) {
    case 'gsi1':
      return [{ IndexName: 'ByGroup', KeySchema: BY_GROUP_KEYS, Projection: { ProjectionType: 'ALL' } }];
    case 'gsi2':
    case 'nottl':
    case 'all':
      return [
        { IndexName: 'ByGroup', KeySchema: BY_GROUP_KEYS, Projection: { ProjectionType: 'KEYS_ONLY' } },
        BY_EMAIL,
      ];
    default:
      return [];
  }
}

/** CreateTable's input for a configuration, PAY_PER_REQUEST. */
export function createTableInput(configuration: Configuration, tableName = TABLE) {
  const indexes = globalIndexes(configuration);
  const keyNames = new Set([
    'pk',
    ...indexes.flatMap((index) => index.KeySchema.map((key) => key.AttributeName)),
  ]);
  const types: Record<string, 'S' | 'N'> = { pk: 'S', grp: 'S', rank: 'N', email: 'S' };
  const streamed = isStreamed(configuration);
  return {
    TableName: tableName,
    AttributeDefinitions: [...keyNames].map((name) => ({ AttributeName: name, AttributeType: types[name]! })),
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
    ...(indexes.length === 0 ? {} : { GlobalSecondaryIndexes: indexes }),
    ...(streamed
      ? { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } }
      : {}),
  };
}

/** The project `eddy serve` runs: the table, and for streams a no-op function bound to it. */
export function projectConfig(configuration: Configuration) {
  const streamed = isStreamed(configuration);
  return {
    tables: [
      {
        ...createTableInput(configuration),
        ...(configuration === 'all'
          ? { TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true } }
          : {}),
      },
    ],
    ...(streamed
      ? {
          functions: {
            noop: {
              handler: './noop.mjs',
              // The Lambda defaults (BatchSize 100, no batching window), as a user's binding has them.
              events: [{ stream: { table: TABLE, StartingPosition: 'LATEST' } }],
            },
          },
        }
      : {}),
  };
}

/** The no-op handler the stream's mapping invokes. */
export const NOOP_HANDLER = 'export const handler = async () => ({ batchItemFailures: [] });\n';

/**
 * What the writes do:
 * - `new`: each writes an item that did not exist (every index gains an entry);
 * - `same`: overwrites of 10,000 items that keep their index keys (only `visits` changes: projected
 *   by the ALL and INCLUDE indexes, not by KEYS_ONLY);
 * - `moved`: overwrites of another 10,000 items that change every index key (each entry moves).
 */
export const WORKLOADS = [
  'put-new',
  'put-same',
  'put-moved',
  'update-new',
  'update-same',
  'update-moved',
] as const;
export type Workload = (typeof WORKLOADS)[number];

export const WORKLOAD_TITLES: Record<Workload, string> = {
  'put-new': 'PutItem, new items',
  'put-same': 'PutItem, overwrite, index key unchanged',
  'put-moved': 'PutItem, overwrite, index key changed',
  'update-new': 'UpdateItem, new items',
  'update-same': 'UpdateItem, overwrite, index key unchanged',
  'update-moved': 'UpdateItem, overwrite, index key changed',
};

/** Items overwritten by each kind of overwrite: `same` in 0..9999, `moved` in 10000..19999. */
export const OVERWRITTEN = 10_000;
const MOVED_FROM = OVERWRITTEN;
/** Keys of new items start here (above every preloaded one). */
const NEW_FROM = 1_000_000;

/**
 * ~230 bytes of item JSON. Fields: pk, grp, rank, the email's two numbers, visits. A preloaded
 * item has grp = pk mod 10000, rank = pk, email c<pk>.0.
 */
const ITEM =
  '{"pk":{"S":"item#########"},"grp":{"S":"g####"},"rank":{"N":"1#########"},' +
  '"email":{"S":"c#########.##########@example.com"},"name":{"S":"Customer with a name"},' +
  '"plan":{"S":"pro"},"visits":{"N":"1##########"},"active":{"BOOL":true},"expires":{"N":"4102444800"}}';

// Attribute name placeholders are written `\u0023rank` (JSON's escape of `#rank`): a `#` run in a
// template is a patched number field (bench/loadGenerator.ts).
const UPDATE_ALL =
  '"UpdateExpression":"SET grp = :g, \\u0023rank = :r, email = :e, \\u0023name = :n, \\u0023plan = :p, visits = :v, ' +
  'active = :a, expires = :x","ExpressionAttributeNames":{"\\u0023rank":"rank","\\u0023name":"name","\\u0023plan":"plan"},' +
  '"ExpressionAttributeValues":{":g":{"S":"g####"},":r":{"N":"1#########"},' +
  '":e":{"S":"c#########.##########@example.com"},":n":{"S":"Customer with a name"},' +
  '":p":{"S":"pro"},":v":{"N":"1##########"},":a":{"BOOL":true},":x":{"N":"4102444800"}}';
const UPDATE_VISITS =
  '"UpdateExpression":"SET visits = :v","ExpressionAttributeValues":{":v":{"N":"1##########"}}';
const UPDATE_KEYS =
  '"UpdateExpression":"SET grp = :g, \\u0023rank = :r, email = :e, visits = :v",' +
  '"ExpressionAttributeNames":{"\\u0023rank":"rank"},"ExpressionAttributeValues":{":g":{"S":"g####"},' +
  '":r":{"N":"1#########"},":e":{"S":"c#########.##########@example.com"},":v":{"N":"1##########"}}';

export function template(workload: Workload | 'preload', port: number, tableName = TABLE): RequestTemplate {
  const key = '"Key":{"pk":{"S":"item#########"}}';
  switch (workload) {
    case 'preload':
    case 'put-new':
    case 'put-same':
    case 'put-moved':
      return jsonRequest(port, 'PutItem', `{"TableName":"${tableName}","Item":${ITEM}}`);
    case 'update-new':
      return jsonRequest(port, 'UpdateItem', `{"TableName":"${tableName}",${key},${UPDATE_ALL}}`);
    case 'update-same':
      return jsonRequest(port, 'UpdateItem', `{"TableName":"${tableName}",${key},${UPDATE_VISITS}}`);
    case 'update-moved':
      return jsonRequest(port, 'UpdateItem', `{"TableName":"${tableName}",${key},${UPDATE_KEYS}}`);
  }
}

/**
 * The field values of a target's requests. `tick` counts every request a target is sent, across
 * all its runs, so no write repeats an earlier one (a write that changes nothing makes no stream
 * record, docs/streams-and-lambda.md) and ranks stay unique.
 */
export class Values {
  private tick = 0;
  private fresh = 0;

  /** The preload's request `n`: items 0..2×OVERWRITTEN-1 with their initial keys. */
  static preload(n: number): number[] {
    return [n, n % 10_000, n, n, 0, 0];
  }

  next(workload: Workload): number[] {
    const tick = ++this.tick;
    // 7919 is prime to 10,000: consecutive writes sweep all the items in a scattered order.
    const scattered = (tick * 7919) % OVERWRITTEN;
    switch (workload) {
      case 'put-new':
      case 'update-new': {
        const pk = NEW_FROM + this.fresh++;
        return [pk, tick % 10_000, tick, pk, 0, tick];
      }
      case 'put-same':
        return [scattered, scattered % 10_000, scattered, scattered, 0, tick];
      case 'update-same':
        return [scattered, tick];
      case 'put-moved': {
        const pk = MOVED_FROM + scattered;
        return [pk, tick % 10_000, tick, pk, tick, tick];
      }
      case 'update-moved': {
        const pk = MOVED_FROM + scattered;
        return [pk, tick % 10_000, tick, pk, tick, tick];
      }
    }
  }
}
