import {
  CreateTableCommand,
  DynamoDBClient,
  UpdateTableCommand,
  type UpdateTableCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { VirtualClock } from '../../../../core/clock.js';
import { httpTransport, type TransportHandle } from '../../../helpers/transports.js';

/** The region the global table tests add a replica in. */
export const WEST = 'us-west-2';

export interface ScoresTable {
  readonly clock: VirtualClock;
  /** eddy over HTTP; its client is in us-east-1, where Scores is created. */
  readonly eddy: TransportHandle;
  /** A client of the same eddy in `WEST`. */
  readonly west: DynamoDBClient;
  /** UpdateTable in us-east-1 creating Scores' replica in `WEST`. */
  addWest(): Promise<UpdateTableCommandOutput>;
  close(): Promise<void>;
}

/**
 * eddy over HTTP on a virtual clock with tables' transitions taking `transientStatusDelayMs`, and
 * Scores (key `pk`, on demand) created and ACTIVE in us-east-1: the table the global table tests
 * make global.
 */
export async function startScores(transientStatusDelayMs = 0): Promise<ScoresTable> {
  const clock = new VirtualClock();
  const eddy = await httpTransport.start({ engine: { clock, transientStatusDelayMs } });
  const west = new DynamoDBClient({
    endpoint: eddy.endpoint!,
    region: WEST,
    credentials: { accessKeyId: 'AKIDEDDYTEST', secretAccessKey: 'eddy-test-secret' },
    maxAttempts: 1,
  });
  await eddy.client.send(
    new CreateTableCommand({
      TableName: 'Scores',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await clock.advance(transientStatusDelayMs);
  return {
    clock,
    eddy,
    west,
    addWest: () =>
      eddy.client.send(
        new UpdateTableCommand({ TableName: 'Scores', ReplicaUpdates: [{ Create: { RegionName: WEST } }] }),
      ),
    close: async () => {
      west.destroy();
      await eddy.close();
    },
  };
}
