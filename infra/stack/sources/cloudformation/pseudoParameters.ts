/**
 * CloudFormation's pseudo parameters for the local stack
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/pseudo-parameter-reference.html).
 * The region and account are eddy's (`--region`, `--account-id`); the partition and URL suffix
 * follow the region as AWS's do (China regions: `aws-cn`, `amazonaws.com.cn`; GovCloud: `aws-us-gov`).
 */
export interface PseudoParameters {
  readonly region: string;
  readonly accountId: string;
  readonly stackName: string;
  readonly partition: string;
  readonly urlSuffix: string;
}

export function pseudoParametersOf(region: string, accountId: string, stackName: string): PseudoParameters {
  const china = region.startsWith('cn-');
  return {
    region,
    accountId,
    stackName,
    partition: china ? 'aws-cn' : region.startsWith('us-gov-') ? 'aws-us-gov' : 'aws',
    urlSuffix: china ? 'amazonaws.com.cn' : 'amazonaws.com',
  };
}

/** The value of `Ref: AWS::<name>` (`AWS::NoValue` is the resolver's), or undefined for no such name. */
export function pseudoParameter(pseudo: PseudoParameters, name: string): unknown {
  switch (name) {
    case 'AWS::Region':
      return pseudo.region;
    case 'AWS::AccountId':
      return pseudo.accountId;
    case 'AWS::StackName':
      return pseudo.stackName;
    case 'AWS::StackId':
      return `arn:${pseudo.partition}:cloudformation:${pseudo.region}:${pseudo.accountId}:stack/${pseudo.stackName}/00000000-0000-0000-0000-000000000000`;
    case 'AWS::Partition':
      return pseudo.partition;
    case 'AWS::URLSuffix':
      return pseudo.urlSuffix;
    case 'AWS::NotificationARNs':
      return [];
    default:
      return undefined;
  }
}

/**
 * A stack name from a folder or file name: CloudFormation's rule, letters, digits and hyphens,
 * starting with a letter, at most 128 characters.
 */
export function stackNameOf(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 128);
  return cleaned === '' ? 'eddy' : cleaned;
}
