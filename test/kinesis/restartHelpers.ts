import { createHostLogger } from '../../infra/host/logger.js';
import { LocalStack } from '../../infra/stack/localStack.js';
import { KINESIS_CREDENTIALS, type Kinesalite } from '../helpers/kinesalite.js';

/** The table the restart tests write to Kinesis: Orders, keyed by `pk`, on demand. */
export const ORDERS_TABLE = {
  TableName: 'Orders',
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' as const }],
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' as const }],
  BillingMode: 'PAY_PER_REQUEST' as const,
};

/**
 * A stack declaring Orders over the data directory `directory` (fsynced writes), its Kinesis
 * destinations written to `kinesis`: started again on the same directory, it is a restart.
 */
export const startOnDataDir = (directory: string, kinesis: Kinesalite): Promise<LocalStack> =>
  LocalStack.start(
    { tables: [ORDERS_TABLE] },
    {
      dataDir: { path: directory, durability: 'always' },
      kinesis: { endpoint: kinesis.endpoint, credentials: KINESIS_CREDENTIALS },
      logger: createHostLogger({ level: 'silent' }),
      startSchedules: false,
    },
  );

/** The `pk` of every record in a stream, in the order Kinesis holds them. */
export const keysIn = async (kinesis: Kinesalite, stream: string): Promise<string[]> =>
  (await kinesis.readAll(stream)).map(
    (record) => (record.data.dynamodb as { Keys: { pk: { S: string } } }).Keys.pk.S,
  );
