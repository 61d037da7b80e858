import { ValidationException } from '../errors/index.js';
import { completeUpdating, KinesisMessages } from '../kinesis/destinations.js';
import { defineOperation } from '../operation.js';
import {
  type UpdateKinesisStreamingDestinationInput,
  updateKinesisStreamingDestinationShape,
  validateUpdateKinesisStreamingDestination,
} from '../validations/updateKinesisStreamingDestination.js';
import { kinesisTable } from './shared/kinesisTable.js';

/**
 * UpdateKinesisStreamingDestination: changes the precision of `ApproximateCreationDateTime` of an
 * ACTIVE destination, which goes UPDATING (showing the new value) and back to ACTIVE. The
 * precision it already has (absent means MILLISECOND) is refused, as are destinations not ACTIVE
 * and streams never enabled (recorded 2026, docs/kinesis-destinations.md §2.3). Records are
 * written throughout, in the new precision from this answer on.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateKinesisStreamingDestination.html
 */
export const updateKinesisStreamingDestination = defineOperation<
  UpdateKinesisStreamingDestinationInput,
  Record<string, unknown>
>({
  name: 'UpdateKinesisStreamingDestination',
  shape: updateKinesisStreamingDestinationShape,
  validate: validateUpdateKinesisStreamingDestination,
  changesTables: true,
  execute({ engine, region }, input) {
    const table = kinesisTable(region, input.TableName);
    const destination = table.kinesisDestinations.find((entry) => entry.streamArn === input.StreamArn);
    if (destination === undefined)
      throw new ValidationException(KinesisMessages.updateUnknown(input.StreamArn));
    if (destination.status !== 'ACTIVE')
      throw new ValidationException(KinesisMessages.updateNotActive(table.name));
    const precision = input.UpdateKinesisStreamingConfiguration!.ApproximateCreationDateTimePrecision!;
    if (precision === (destination.precision ?? 'MILLISECOND'))
      throw new ValidationException(
        KinesisMessages.precisionAlreadySet(precision, table.tableId, destination.streamArn),
      );
    destination.precision = precision;
    destination.status = 'UPDATING';
    completeUpdating(engine, region, table, destination);
    return {
      TableName: table.name,
      StreamArn: input.StreamArn,
      DestinationStatus: 'UPDATING',
      UpdateKinesisStreamingConfiguration: { ApproximateCreationDateTimePrecision: precision },
    };
  },
});
