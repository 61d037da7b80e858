import type { TableConfig } from '../config.js';
import { defined, type TemplateResource, type Warn } from './template.js';

/**
 * A table of the config as an `AWS::DynamoDB::Table` resource. The config holds CreateTable
 * requests, and the resource's properties are the same members with three spellings changed:
 * StreamSpecification has no StreamEnabled (a stream exists when a view type is given),
 * SSESpecification says SSEEnabled, and ResourcePolicy holds a PolicyDocument object instead of
 * JSON text.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html
 *
 * TableName is kept: handlers address tables by name (the example's tally writes to `Votes`), so
 * the deployed table must carry the name the code uses. The price is CloudFormation's rule for
 * named resources: a change that replaces the table (a new key schema) fails instead of creating
 * a second table, and one account and region hold one stack of the project.
 *
 * Tables are retained when the stack is deleted or the table replaced (DeletionPolicy and
 * UpdateReplacePolicy `Retain`): a stack operation must not delete the data.
 */

/** Members copied as they are (CreateTable and the resource spell them alike). */
const SAME_MEMBERS = [
  'TableName',
  'AttributeDefinitions',
  'KeySchema',
  'TableClass',
  'DeletionProtectionEnabled',
  'OnDemandThroughput',
  'WarmThroughput',
  'Tags',
  'TimeToLiveSpecification',
] as const;

/** Members translated below, or that are CreateTable-only and say nothing about the table. */
const HANDLED_MEMBERS = new Set<string>([
  ...SAME_MEMBERS,
  'BillingMode',
  'ProvisionedThroughput',
  'GlobalSecondaryIndexes',
  'LocalSecondaryIndexes',
  'StreamSpecification',
  'SSESpecification',
  'ResourcePolicy',
]);

export function tableResource(table: TableConfig, path: string, warn: Warn): TemplateResource {
  for (const member of Object.keys(table)) {
    if (!HANDLED_MEMBERS.has(member))
      warn(`${path}.${member} has no AWS::DynamoDB::Table property; not deployed`);
  }
  // CreateTable's default billing mode, stated so the template does not depend on defaults.
  const billingMode = table.BillingMode ?? 'PROVISIONED';
  const provisioned = billingMode === 'PROVISIONED';
  const properties: Record<string, unknown> = {
    ...defined(Object.fromEntries(SAME_MEMBERS.map((member) => [member, table[member]]))),
    BillingMode: billingMode,
    ...(provisioned && table.ProvisionedThroughput
      ? { ProvisionedThroughput: table.ProvisionedThroughput }
      : {}),
    ...(table.GlobalSecondaryIndexes?.length
      ? {
          GlobalSecondaryIndexes: table.GlobalSecondaryIndexes.map((index) =>
            defined({
              IndexName: index.IndexName,
              KeySchema: index.KeySchema,
              Projection: index.Projection,
              ProvisionedThroughput: provisioned ? index.ProvisionedThroughput : undefined,
              OnDemandThroughput: index.OnDemandThroughput,
              WarmThroughput: index.WarmThroughput,
            }),
          ),
        }
      : {}),
    ...(table.LocalSecondaryIndexes?.length
      ? {
          LocalSecondaryIndexes: table.LocalSecondaryIndexes.map((index) =>
            defined({ IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection }),
          ),
        }
      : {}),
    ...(table.StreamSpecification?.StreamEnabled
      ? { StreamSpecification: { StreamViewType: table.StreamSpecification.StreamViewType } }
      : {}),
    ...(table.SSESpecification
      ? {
          SSESpecification: defined({
            SSEEnabled: table.SSESpecification.Enabled ?? false,
            SSEType: table.SSESpecification.SSEType,
            KMSMasterKeyId: table.SSESpecification.KMSMasterKeyId,
          }),
        }
      : {}),
    ...resourcePolicyOf(table.ResourcePolicy, `${path}.ResourcePolicy`, warn),
  };
  return {
    Type: 'AWS::DynamoDB::Table',
    DeletionPolicy: 'Retain',
    UpdateReplacePolicy: 'Retain',
    Properties: properties,
  };
}

function resourcePolicyOf(policy: string | undefined, path: string, warn: Warn): Record<string, unknown> {
  if (policy === undefined) return {};
  try {
    return { ResourcePolicy: { PolicyDocument: JSON.parse(policy) as unknown } };
  } catch {
    warn(`${path} is not JSON; not deployed`);
    return {};
  }
}

/** The table's stream view type, when its stream is enabled. */
export function streamViewTypeOf(table: TableConfig): string | undefined {
  return table.StreamSpecification?.StreamEnabled ? table.StreamSpecification.StreamViewType : undefined;
}
