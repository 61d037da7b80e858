import { ValidationException } from '../errors/index.js';
import { completeEnabling, isLive, KinesisMessages } from '../kinesis/destinations.js';
import { defineOperation } from '../operation.js';
import {
  type EnableKinesisStreamingDestinationInput,
  enableKinesisStreamingDestinationShape,
} from '../validations/enableKinesisStreamingDestination.js';
import { kinesisTable } from './shared/kinesisTable.js';

/**
 * EnableKinesisStreamingDestination: the destination is ENABLING, then ACTIVE once the stream is
 * found writable, or ENABLE_FAILED with a DestinationStatusDescription (the service never refuses
 * an ARN at once). A table has one live destination; DISABLED and ENABLE_FAILED entries stay
 * listed, and enabling one of them again flips it (docs/kinesis-destinations.md §2.1, §2.2).
 * Changes committed from this answer on are written to the stream once it is ACTIVE.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_EnableKinesisStreamingDestination.html
 */
export const enableKinesisStreamingDestination = defineOperation<
  EnableKinesisStreamingDestinationInput,
  Record<string, unknown>
>({
  name: 'EnableKinesisStreamingDestination',
  shape: enableKinesisStreamingDestinationShape,
  changesTables: true,
  execute({ engine, region }, input) {
    const table = kinesisTable(region, input.TableName);
    if (table.kinesisDestinations.some(isLive))
      throw new ValidationException(KinesisMessages.enableNotAllowed);
    const precision = input.EnableKinesisStreamingConfiguration?.ApproximateCreationDateTimePrecision;
    let destination = table.kinesisDestinations.find((entry) => entry.streamArn === input.StreamArn);
    if (destination === undefined) {
      destination = { streamArn: input.StreamArn, status: 'ENABLING' };
      table.kinesisDestinations.unshift(destination);
    }
    destination.status = 'ENABLING';
    destination.description = undefined;
    // A re-enabled entry starts over: its precision is what this call sets, or absent.
    destination.precision = precision;
    completeEnabling(engine, region, table, destination);
    return {
      DestinationStatus: 'ENABLING',
      EnableKinesisStreamingConfiguration:
        precision === undefined ? {} : { ApproximateCreationDateTimePrecision: precision },
      StreamArn: input.StreamArn,
      TableName: table.name,
    };
  },
});
