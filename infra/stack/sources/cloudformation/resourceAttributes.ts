import type { CfnResource, TemplateResolver } from './intrinsics.js';
import type { TemplatePath } from './templateFile.js';

/**
 * What `Ref` and `Fn::GetAtt` give for a resource of the local stack: the values CloudFormation
 * documents for each type ("Return values" of each resource's page), built from the resource's
 * local name, the stack's region and account.
 *
 * Local names (docs/templates.md §3.3): the physical name the template gives (`TableName`,
 * `FunctionName`, `QueueName`...), else the name eddy synth recorded (`Metadata.Eddy.Name`, with
 * the local ARN in `Metadata.Eddy.Arn` for the destinations it creates), else the logical id. CloudFormation would generate `<stack>-<LogicalId>-<random>`; the logical id
 * keeps names stable across runs and readable in logs, and code that reads a name through `Ref`
 * (an environment variable) gets the same one.
 */

interface TypeFacts {
  /** The property that names the resource. */
  readonly nameProperty?: string;
  /** The Ref value, from the local name (default: the name). */
  readonly ref?: (name: string, arn: string, context: ArnContext) => string;
  /** The resource's ARN (the `Arn` attribute). */
  readonly arn?: (name: string, context: ArnContext) => string;
  /** Other attributes. */
  readonly attributes?: Readonly<Record<string, (name: string, arn: string, context: ArnContext) => string>>;
}

interface ArnContext {
  readonly partition: string;
  readonly region: string;
  readonly accountId: string;
  readonly urlSuffix: string;
}

/**
 * The label standing for a stream in ARNs written into strings: the local stream's label is the
 * time the table is created (docs/streams-and-lambda.md §1.1.7), which a template cannot know.
 * Bindings do not need it (they name the table); a handler given a StreamArn in its environment gets
 * this one.
 */
export const STREAM_LABEL_PLACEHOLDER = '*';

const tableArn = (name: string, c: ArnContext) =>
  `arn:${c.partition}:dynamodb:${c.region}:${c.accountId}:table/${name}`;
const table: TypeFacts = {
  nameProperty: 'TableName',
  arn: tableArn,
  attributes: {
    StreamArn: (_name, arn) => `${arn}/stream/${STREAM_LABEL_PLACEHOLDER}`,
    TableId: (name) => name,
  },
};
const lambdaFunction: TypeFacts = {
  nameProperty: 'FunctionName',
  arn: (name, c) => `arn:${c.partition}:lambda:${c.region}:${c.accountId}:function:${name}`,
};

const TYPES: Readonly<Record<string, TypeFacts>> = {
  'AWS::DynamoDB::Table': table,
  'AWS::DynamoDB::GlobalTable': table,
  'AWS::Serverless::SimpleTable': table,
  'AWS::Lambda::Function': lambdaFunction,
  'AWS::Serverless::Function': lambdaFunction,
  'AWS::SQS::Queue': {
    nameProperty: 'QueueName',
    arn: (name, c) => `arn:${c.partition}:sqs:${c.region}:${c.accountId}:${name}`,
    // A queue's Ref is its URL.
    ref: (name, _arn, c) => `https://sqs.${c.region}.${c.urlSuffix}/${c.accountId}/${name}`,
    attributes: {
      QueueName: (name) => name,
      QueueUrl: (name, _arn, c) => `https://sqs.${c.region}.${c.urlSuffix}/${c.accountId}/${name}`,
    },
  },
  'AWS::SNS::Topic': {
    nameProperty: 'TopicName',
    arn: (name, c) => `arn:${c.partition}:sns:${c.region}:${c.accountId}:${name}`,
    ref: (_name, arn) => arn,
    attributes: { TopicName: (name) => name, TopicArn: (_name, arn) => arn },
  },
  'AWS::S3::Bucket': {
    nameProperty: 'BucketName',
    arn: (name, c) => `arn:${c.partition}:s3:::${name}`,
    attributes: {
      DomainName: (name, _arn, c) => `${name}.s3.${c.urlSuffix}`,
      RegionalDomainName: (name, _arn, c) => `${name}.s3.${c.region}.${c.urlSuffix}`,
    },
  },
  'AWS::Events::Rule': {
    nameProperty: 'Name',
    arn: (name, c) => `arn:${c.partition}:events:${c.region}:${c.accountId}:rule/${name}`,
  },
  'AWS::Scheduler::Schedule': {
    nameProperty: 'Name',
    arn: (name, c) => `arn:${c.partition}:scheduler:${c.region}:${c.accountId}:schedule/default/${name}`,
  },
  'AWS::IAM::Role': {
    nameProperty: 'RoleName',
    arn: (name, c) => `arn:${c.partition}:iam::${c.accountId}:role/${name}`,
  },
};

/** The local name of a resource (the rule above). */
export function localName(resolver: TemplateResolver, logicalId: string, resource: CfnResource): string {
  const property = TYPES[resource.Type]?.nameProperty;
  if (property !== undefined) {
    const value = resolver.property(logicalId, property);
    if (value !== undefined)
      return resolver.text(
        value,
        ['Resources', logicalId, 'Properties', property],
        'a name must be a string',
      );
  }
  const recorded = eddyMetadata(resource)?.Name;
  if (typeof recorded === 'string' && recorded !== '') return recorded;
  // A FIFO queue's name ends in .fifo (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/FIFO-queues.html).
  if (resource.Type === 'AWS::SQS::Queue' && resolver.property(logicalId, 'FifoQueue') === true)
    return `${logicalId}.fifo`;
  // Bucket names are lower case (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html).
  return resource.Type === 'AWS::S3::Bucket' ? logicalId.toLowerCase() : logicalId;
}

/** `Metadata.Eddy` of a resource: what eddy synth records for eddy's own use. */
export function eddyMetadata(resource: CfnResource): Readonly<Record<string, unknown>> | undefined {
  const eddy = resource.Metadata?.Eddy;
  return typeof eddy === 'object' && eddy !== null && !Array.isArray(eddy)
    ? (eddy as Record<string, unknown>)
    : undefined;
}

function contextOf(resolver: TemplateResolver): ArnContext {
  const { partition, region, accountId, urlSuffix } = resolver.pseudo;
  return { partition, region, accountId, urlSuffix };
}

/** `Ref` of a resource. */
export function refOf(
  resolver: TemplateResolver,
  logicalId: string,
  resource: CfnResource,
  _path: TemplatePath,
): string {
  const name = resolver.nameOf(logicalId);
  const facts = TYPES[resource.Type];
  const context = contextOf(resolver);
  const arn = facts?.arn?.(name, context) ?? genericArn(resource.Type, name, context);
  return facts?.ref?.(name, arn, context) ?? name;
}

/** `Fn::GetAtt` of a resource. */
export function attributeOf(
  resolver: TemplateResolver,
  logicalId: string,
  resource: CfnResource,
  attribute: string,
  _path: TemplatePath,
): string {
  const name = resolver.nameOf(logicalId);
  const facts = TYPES[resource.Type];
  const context = contextOf(resolver);
  // eddy synth records the local ARN a destination it created stands for.
  const recorded = eddyMetadata(resource)?.Arn;
  const arn =
    typeof recorded === 'string'
      ? recorded
      : (facts?.arn?.(name, context) ?? genericArn(resource.Type, name, context));
  if (attribute === 'Arn') return arn;
  const known = facts?.attributes?.[attribute];
  if (known !== undefined) return known(name, arn, context);
  // An attribute eddy has no value for (an API's URL, a role's id...): a stand-in that says so.
  return `${logicalId}.${attribute}`;
}

/** `arn:aws:<service>:<region>:<account>:<name>` for types eddy does not know. */
function genericArn(type: string, name: string, c: ArnContext): string {
  const service = type.split('::')[1]?.toLowerCase() ?? 'cloudformation';
  return `arn:${c.partition}:${service}:${c.region}:${c.accountId}:${name}`;
}
