import {
  getAtt,
  type LogicalIds,
  type PolicyStatement,
  ref,
  SynthError,
  sub,
  type TemplateResource,
  type TemplateValue,
} from './template.js';

/**
 * On-failure destinations of event source mappings (DestinationConfig.OnFailure.Destination): an
 * SQS queue, SNS topic or S3 bucket ARN
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html).
 *
 * Locally any ARN works: eddy keeps the records itself. Deployed, a destination must exist. An ARN
 * in eddy's placeholder account `000000000000` names a destination of the local stack, which the
 * template therefore creates (an `AWS::SQS::Queue`, `AWS::SNS::Topic` or `AWS::S3::Bucket`) and
 * references by `Fn::GetAtt`/`Ref`. Any other ARN is a real resource and stays as written. S3
 * bucket ARNs carry no account (`arn:aws:s3:::bucket`), so they are real; write
 * `arn:aws:s3::000000000000:bucket` (which eddy also serves locally) for a bucket the template
 * should create.
 *
 * Created destinations have no fixed names (queue, topic and bucket names are unique per account
 * or globally, and nothing in the code addresses them by name): CloudFormation names them after
 * the stack. The template's Outputs say which is which.
 *
 * The function sending to a destination gets exactly the permissions Lambda needs for it:
 * sqs:SendMessage, sns:Publish, or s3:PutObject with s3:ListBucket (same page, "Configuring
 * destinations for failed invocations").
 */

/** The account id of eddy's local ARNs (`server.accountId`'s default). */
export const PLACEHOLDER_ACCOUNT = '000000000000';

export interface ResolvedDestination {
  /** The value for `OnFailure.Destination`: the ARN, or a reference to the created resource. */
  readonly destination: TemplateValue;
  /** What the sending function's role must allow. */
  readonly statements: readonly PolicyStatement[];
}

type Service = 'sqs' | 'sns' | 's3';

const RESOURCE_TYPES: Record<Service, { readonly type: string; readonly suffix: string }> = {
  sqs: { type: 'AWS::SQS::Queue', suffix: 'Queue' },
  sns: { type: 'AWS::SNS::Topic', suffix: 'Topic' },
  s3: { type: 'AWS::S3::Bucket', suffix: 'Bucket' },
};

/** The longest time SQS keeps a message: failure records are looked at after the fact. */
const FOURTEEN_DAYS = 1_209_600;

export class Destinations {
  /** Resources created for placeholder ARNs, by logical id. */
  readonly resources: Record<string, TemplateResource> = {};
  /** Created destinations: logical id → the local ARN it stands for. */
  readonly created = new Map<string, string>();
  private readonly byArn = new Map<string, string>();

  constructor(private readonly ids: LogicalIds) {}

  /** @throws SynthError for an ARN that is not an SQS, SNS or S3 ARN. */
  resolve(arn: string, path: string): ResolvedDestination {
    const match = /^arn:(aws[a-z-]*):(sqs|sns|s3):([a-z0-9-]*):(\d{12})?:(.+)$/.exec(arn);
    if (match === null) {
      throw new SynthError(path, `'${arn}' is not an SQS queue, SNS topic or S3 bucket ARN`);
    }
    const service = match[2] as Service;
    const account = match[4];
    const name = match[5]!;
    if (account !== PLACEHOLDER_ACCOUNT) return { destination: arn, statements: statementsFor(service, arn) };
    let logicalId = this.byArn.get(arn);
    if (logicalId === undefined) {
      const { type, suffix } = RESOURCE_TYPES[service];
      logicalId = this.ids.allocate(name, suffix);
      this.byArn.set(arn, logicalId);
      this.created.set(logicalId, arn);
      // The local name and ARN it stands for: what the template read back gives it (docs/templates.md §7).
      this.resources[logicalId] = {
        ...resourceOf(service, type),
        Metadata: { Eddy: { Name: name, Arn: arn } },
      };
    }
    const destination = service === 'sns' ? ref(logicalId) : getAtt(logicalId, 'Arn');
    const objects = service === 's3' ? sub(`\${${logicalId}.Arn}/*`) : undefined;
    return { destination, statements: statementsFor(service, destination, objects) };
  }
}

function resourceOf(service: Service, type: string): TemplateResource {
  if (service === 'sqs') return { Type: type, Properties: { MessageRetentionPeriod: FOURTEEN_DAYS } };
  // A bucket of failure records outlives the stack, like the tables whose failures it records.
  if (service === 's3') return { Type: type, DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' };
  return { Type: type };
}

function statementsFor(service: Service, arn: TemplateValue, objects?: TemplateValue): PolicyStatement[] {
  if (service === 'sqs') return [{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arn }];
  if (service === 'sns') return [{ Effect: 'Allow', Action: 'sns:Publish', Resource: arn }];
  return [
    { Effect: 'Allow', Action: 's3:ListBucket', Resource: arn },
    { Effect: 'Allow', Action: 's3:PutObject', Resource: objects ?? `${arn as string}/*` },
  ];
}
