import { ValidationException } from '../errors/index.js';
import { completeDisabling, KinesisMessages } from '../kinesis/destinations.js';
import { defineOperation } from '../operation.js';
import {
  type DisableKinesisStreamingDestinationInput,
  disableKinesisStreamingDestinationShape,
  validateDisableKinesisStreamingDestination,
} from '../validations/disableKinesisStreamingDestination.js';
import { kinesisTable } from './shared/kinesisTable.js';

/**
 * DisableKinesisStreamingDestination: an ACTIVE destination goes DISABLING, then DISABLED (and
 * stays listed). Any other state, a stream never enabled or an ARN that is no stream at all is
 * the same ValidationException; a second Disable while DISABLING answers DISABLING again
 * (recorded 2026, docs/kinesis-destinations.md §2.4). Changes committed before this answer are
 * still written; later ones are not.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DisableKinesisStreamingDestination.html
 */
export const disableKinesisStreamingDestination = defineOperation<
  DisableKinesisStreamingDestinationInput,
  Record<string, unknown>
>({
  name: 'DisableKinesisStreamingDestination',
  shape: disableKinesisStreamingDestinationShape,
  validate: validateDisableKinesisStreamingDestination,
  changesTables: true,
  execute({ engine, region }, input) {
    const table = kinesisTable(region, input.TableName);
    const destination = table.kinesisDestinations.find((entry) => entry.streamArn === input.StreamArn);
    if (destination?.status === 'ACTIVE') {
      destination.status = 'DISABLING';
      completeDisabling(engine, region, table, destination);
    } else if (destination?.status !== 'DISABLING')
      throw new ValidationException(KinesisMessages.disableNotActive);
    return { TableName: table.name, StreamArn: input.StreamArn, DestinationStatus: 'DISABLING' };
  },
});
