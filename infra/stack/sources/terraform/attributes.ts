import type { Block } from './module.js';

/**
 * The attributes the AWS provider computes for the resources a local stack reads
 * (docs/terraform.md §4), from the local names, region and account, as eddy's own ARNs are: a table's `arn` and
 * `stream_arn`, a function's `arn` and `invoke_arn`, a queue's `arn` and `url`... An attribute not
 * listed here is the argument of that name, else a placeholder (`aws_iam_role.x.unique_id`).
 * https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/dynamodb_table#attribute-reference
 *
 * A stream ARN written into a string ends in `/stream/*`: its label is the table's creation time,
 * which a configuration cannot know (docs/streams-and-lambda.md §1.1.7); bindings read the table
 * from it.
 */
export interface AttributeContext {
  readonly argument: (name: string) => unknown;
  readonly region: string;
  readonly accountId: string;
}

export function computedAttribute(
  block: Block,
  attribute: string,
  context: AttributeContext,
): { readonly value: unknown } | undefined {
  const [kind, type, name] = block.address as [string, string, string];
  const { region, accountId } = context;
  const argument = (key: string) => context.argument(key);
  const named = (key: string) => {
    const value = argument(key);
    return typeof value === 'string' ? value : name;
  };
  if (kind === 'data') return dataAttribute(type, attribute, context);
  switch (type) {
    case 'aws_dynamodb_table': {
      const table = named('name');
      const arn = `arn:aws:dynamodb:${region}:${accountId}:table/${table}`;
      const values: Record<string, unknown> = {
        id: table,
        name: table,
        arn,
        stream_arn: argument('stream_enabled') === true ? `${arn}/stream/*` : '',
        stream_label: argument('stream_enabled') === true ? '*' : '',
      };
      return attribute in values ? { value: values[attribute] } : undefined;
    }
    case 'aws_lambda_function': {
      const fn = named('function_name');
      const arn = `arn:aws:lambda:${region}:${accountId}:function:${fn}`;
      const values: Record<string, unknown> = {
        id: fn,
        function_name: fn,
        arn,
        qualified_arn: `${arn}:$LATEST`,
        invoke_arn: `arn:aws:apigateway:${region}:lambda:path/2015-03-31/functions/${arn}/invocations`,
        version: '$LATEST',
      };
      return attribute in values ? { value: values[attribute] } : undefined;
    }
    case 'aws_sqs_queue': {
      const queue = named('name');
      const url = `https://sqs.${region}.amazonaws.com/${accountId}/${queue}`;
      const values: Record<string, unknown> = {
        name: queue,
        arn: `arn:aws:sqs:${region}:${accountId}:${queue}`,
        id: url,
        url,
      };
      return attribute in values ? { value: values[attribute] } : undefined;
    }
    case 'aws_sns_topic': {
      const topic = named('name');
      const arn = `arn:aws:sns:${region}:${accountId}:${topic}`;
      const values: Record<string, unknown> = { name: topic, arn, id: arn };
      return attribute in values ? { value: values[attribute] } : undefined;
    }
    case 'aws_s3_bucket': {
      const bucket = named('bucket');
      const values: Record<string, unknown> = { bucket, id: bucket, arn: `arn:aws:s3:::${bucket}` };
      return attribute in values ? { value: values[attribute] } : undefined;
    }
    case 'aws_cloudwatch_event_rule': {
      const rule = named('name');
      const values: Record<string, unknown> = {
        name: rule,
        id: rule,
        arn: `arn:aws:events:${region}:${accountId}:rule/${rule}`,
      };
      return attribute in values ? { value: values[attribute] } : undefined;
    }
    case 'aws_scheduler_schedule': {
      const schedule = named('name');
      const values: Record<string, unknown> = {
        name: schedule,
        id: `default/${schedule}`,
        arn: `arn:aws:scheduler:${region}:${accountId}:schedule/default/${schedule}`,
      };
      return attribute in values ? { value: values[attribute] } : undefined;
    }
    case 'aws_iam_role': {
      const role = named('name');
      const values: Record<string, unknown> = {
        name: role,
        id: role,
        arn: `arn:aws:iam::${accountId}:role/${role}`,
      };
      return attribute in values ? { value: values[attribute] } : undefined;
    }
    default:
      return undefined;
  }
}

/** Data sources that answer from the local stack's settings. */
function dataAttribute(
  type: string,
  attribute: string,
  context: AttributeContext,
): { readonly value: unknown } | undefined {
  const { region, accountId } = context;
  const byType: Record<string, Record<string, unknown>> = {
    aws_caller_identity: {
      account_id: accountId,
      id: accountId,
      arn: `arn:aws:iam::${accountId}:root`,
      user_id: accountId,
    },
    aws_region: { name: region, region, id: region, endpoint: `dynamodb.${region}.amazonaws.com` },
    aws_partition: { partition: 'aws', dns_suffix: 'amazonaws.com', id: 'aws' },
  };
  const values = byType[type];
  return values !== undefined && attribute in values ? { value: values[attribute] } : undefined;
}
