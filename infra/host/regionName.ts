/**
 * AWS region names: the union of the partitions' region patterns the SDKs resolve endpoints with
 * (`regionRegex` of aws, aws-cn, aws-us-gov, aws-iso, aws-iso-b, aws-iso-e, aws-iso-f and
 * aws-eusc in the SDK's partitions table, `@aws-sdk/core` util-endpoints `partitions.js`):
 * `us-east-1`, `cn-north-1`, `us-gov-west-1`, `eusc-de-east-1`... and never `local` or markup.
 * https://docs.aws.amazon.com/general/latest/gr/rande.html
 */
const REGION_NAME =
  /^(?:us|eu|ap|sa|ca|me|af|il|mx|cn|us-gov|us-iso|us-isob|us-isof|eu-isoe|eusc-de)-\w+-\d+$/;

/** Whether `value` has the shape of an AWS region name. */
export function isRegionName(value: unknown): value is string {
  return typeof value === 'string' && REGION_NAME.test(value);
}
