import { InvalidParameterValueException } from '../errors.js';
import { optionalBoolean, optionalObject, optionalString } from '../request.js';

/**
 * Shape checks of the mapping operations' bodies before the mapping manager validates the
 * values (ranges, enums, filters, destinations: `streams/mapping/settings.ts`): nested members
 * must be objects and lists where the service model says so, so no request can reach the manager
 * with a shape it cannot read.
 */
export function mappingMembers(input: Record<string, unknown>): Record<string, unknown> {
  const criteria = optionalObject(input, 'FilterCriteria');
  if (criteria !== undefined) {
    const filters = criteria.Filters;
    if (filters !== undefined && filters !== null) {
      if (!Array.isArray(filters) || filters.some((filter) => typeof filter !== 'object' || filter === null))
        throw new InvalidParameterValueException('Invalid filter pattern definition.');
    }
  }
  const destination = optionalObject(input, 'DestinationConfig');
  if (destination !== undefined) {
    for (const condition of ['OnFailure', 'OnSuccess']) {
      const member = optionalObject(destination, condition);
      if (member !== undefined) optionalString(member, 'Destination');
    }
  }
  optionalBoolean(input, 'Enabled');
  optionalBoolean(input, 'BisectBatchOnFunctionError');
  for (const member of ['FunctionName', 'EventSourceArn', 'StartingPosition']) optionalString(input, member);
  const timestamp = input.StartingPositionTimestamp;
  if (timestamp !== undefined && timestamp !== null && typeof timestamp !== 'number')
    throw new InvalidParameterValueException('StartingPositionTimestamp must be a timestamp.');
  const types = input.FunctionResponseTypes;
  if (types !== undefined && types !== null && !Array.isArray(types))
    throw new InvalidParameterValueException('FunctionResponseTypes must be a list.');
  return input;
}

/** eddy's mappings read DynamoDB streams; other sources are Lambda's but not eddy's. */
export function checkStreamSource(arn: unknown): void {
  if (typeof arn !== 'string') return;
  if (/^arn:aws[a-zA-Z-]*:dynamodb:[^:]*:\d*:table\/[^/]+\/stream\//.test(arn)) return;
  if (/^arn:aws[a-zA-Z-]*:(sqs|kinesis|kafka|mq|docdb|rds):/.test(arn))
    throw new InvalidParameterValueException(
      `eddy runs event source mappings for DynamoDB streams only: ${arn} is not a DynamoDB stream ARN.`,
    );
}
