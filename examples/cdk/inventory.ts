import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, Runtime, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * Stock levels: every stock change lands in the Stock table; `onLowStock` sees only the changes
 * that take an item below its threshold (a filter on the stream) and records a reorder; `restock`
 * runs every hour. eddy runs this app's cloud assembly as it is: `npx eddy serve --cdk`.
 */
export class InventoryStack extends Stack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stock = new Table(this, 'Stock', {
      tableName: 'stock',
      partitionKey: { name: 'sku', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
    });
    const reorders = new Table(this, 'Reorders', {
      tableName: 'reorders',
      partitionKey: { name: 'sku', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
    });
    const bundled = (name: string) => ({
      entry: join(HERE, 'src', `${name}.ts`),
      runtime: Runtime.NODEJS_22_X,
      // The runtime carries the AWS SDK v3 (CDK leaves it out of the bundle).
      bundling: { format: OutputFormat.ESM },
      environment: { REORDERS_TABLE: reorders.tableName },
    });
    const onLowStock = new NodejsFunction(this, 'OnLowStock', {
      functionName: 'onLowStock',
      ...bundled('onLowStock'),
    });
    onLowStock.addEventSource(
      new DynamoEventSource(stock, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 10,
        reportBatchItemFailures: true,
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('MODIFY'),
            dynamodb: { NewImage: { belowThreshold: { BOOL: FilterRule.isEqual(true) } } },
          }),
        ],
      }),
    );
    const restock = new NodejsFunction(this, 'Restock', { functionName: 'restock', ...bundled('restock') });
    new Rule(this, 'Hourly', {
      schedule: Schedule.rate(Duration.hours(1)),
      targets: [new LambdaFunction(restock)],
    });
  }
}
