import type { Logger } from 'pino';
import type { Engine } from '../../core/engine.js';
import type { RequestContext } from '../../core/operation.js';
import type { TableConfig } from '../config.js';
import { provisionTables, TableSetupError } from '../host/provision.js';

export const DEMO_TABLE_NAME = 'Demo';

/**
 * The table `eddy serve` creates when there is no config: a composite key, a GSI, a TTL
 * attribute and a NEW_AND_OLD_IMAGES stream, i.e. every moving part worth trying.
 */
export const DEMO_TABLE: TableConfig = {
  TableName: DEMO_TABLE_NAME,
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
    { AttributeName: 'gsi1pk', AttributeType: 'S' },
    { AttributeName: 'gsi1sk', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: 'GSI1',
      KeySchema: [
        { AttributeName: 'gsi1pk', KeyType: 'HASH' },
        { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
  ],
  BillingMode: 'PAY_PER_REQUEST',
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
};

const DEMO_ITEMS = [
  {
    pk: { S: 'USER#1' },
    sk: { S: 'PROFILE' },
    name: { S: 'Ada' },
    gsi1pk: { S: 'ORG#eddy' },
    gsi1sk: { S: 'Ada' },
  },
  { pk: { S: 'USER#1' }, sk: { S: 'ORDER#2026-01-02' }, total: { N: '42.5' }, status: { S: 'SHIPPED' } },
  {
    pk: { S: 'USER#2' },
    sk: { S: 'PROFILE' },
    name: { S: 'Grace' },
    gsi1pk: { S: 'ORG#eddy' },
    gsi1sk: { S: 'Grace' },
  },
];

/**
 * Creates the demo table with whatever the engine accepts today: if CreateTable refuses the
 * stream or the GSI (their issues not landed yet), it retries without them, logging at debug.
 * Returns what was created, or undefined when this build has no CreateTable at all.
 */
export function createDemoTable(
  engine: Engine,
  context: RequestContext,
  logger: Logger,
): TableConfig | undefined {
  if (!engine.supports('CreateTable')) {
    logger.debug('demo table skipped: CreateTable is not implemented yet');
    return undefined;
  }
  const { StreamSpecification: _stream, ...withoutStream } = DEMO_TABLE;
  const { GlobalSecondaryIndexes: _indexes, ...plain } = withoutStream;
  const variants: TableConfig[] = [
    DEMO_TABLE,
    withoutStream,
    { ...plain, AttributeDefinitions: DEMO_TABLE.AttributeDefinitions!.slice(0, 2) },
  ];
  for (const variant of variants) {
    try {
      provisionTables(engine, [variant], context, { logger, skippedStepLevel: 'debug' });
      seedDemoItems(engine, context, logger);
      if (engine.supports('UpdateTimeToLive')) return variant;
      const { TimeToLiveSpecification: _ttl, ...withoutTtl } = variant;
      return withoutTtl;
    } catch (error) {
      if (!(error instanceof TableSetupError) || error.step !== 'CreateTable') throw error;
      logger.debug({ reason: error.reason }, 'demo table: engine refused a variant, trying a simpler one');
    }
  }
  return undefined;
}

function seedDemoItems(engine: Engine, context: RequestContext, logger: Logger): void {
  if (!engine.supports('PutItem')) return;
  for (const item of DEMO_ITEMS) {
    try {
      engine.execute('PutItem', { TableName: DEMO_TABLE_NAME, Item: item }, context);
    } catch (error) {
      // A table still CREATING (--create-delay) refuses writes; the demo stays empty then.
      logger.debug({ err: error }, 'demo item not written');
      return;
    }
  }
}
