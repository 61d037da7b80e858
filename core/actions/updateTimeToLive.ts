import { ResourceNotFoundException, ValidationException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { checkNoReplicaBeingAdded, otherMembers, propagate } from '../replication/settingsPropagation.js';
import type { Table } from '../store/table.js';
import { syncExpiryIndex } from '../ttl/expiryIndex.js';
import { TableMessages } from '../validations/tableSchema.js';
import {
  TimeToLiveMessages,
  type UpdateTimeToLiveInput,
  updateTimeToLiveShape,
} from '../validations/updateTimeToLive.js';

/**
 * UpdateTimeToLive: enables or disables TTL on a table and echoes the specification
 * (docs/streams-and-lambda.md §5.1). The service answers ENABLED/DISABLED at once, never ENABLING/DISABLING
 * (docs/streams-and-lambda.md §5.2).
 *
 * Refusals, checked in this order (docs/streams-and-lambda.md §5.3, §5.4): enabling while enabled ("already
 * enabled", or "different AttributeName" for another name), disabling while disabled, disabling another
 * name, then any change within `EngineOptions.ttlChangeLockoutMs` (default 1 hour) of the last.
 *
 * Enabling builds the table's expiry index from the items already stored (docs/streams-and-lambda.md §5.6),
 * so items written before TTL was enabled expire too; disabling drops it. Neither touches an item.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTimeToLive.html
 */
export const updateTimeToLive = defineOperation<UpdateTimeToLiveInput, Record<string, unknown>>({
  name: 'UpdateTimeToLive',
  shape: updateTimeToLiveShape,
  // The TTL setting is table metadata: persistence and the change log hear of it.
  changesTables: true,
  execute({ engine, region }, input) {
    const table = region.tables.get(input.TableName);
    if (table === undefined)
      throw new ResourceNotFoundException(TableMessages.tableNotFound(input.TableName));
    // TTL is the global table's setting: not while a replica is being added (DDB-TABLE-442).
    checkNoReplicaBeingAdded(table);
    const { AttributeName: attributeName, Enabled: enabled } = input.TimeToLiveSpecification;
    const setting = table.timeToLive;
    const current = setting.attributeName ?? '';
    const active = setting.status === 'ENABLED' || setting.status === 'ENABLING';
    if (enabled && active) {
      throw new ValidationException(
        current === attributeName
          ? TimeToLiveMessages.alreadyEnabled
          : TimeToLiveMessages.differentAttribute(current),
      );
    }
    if (!enabled && !active) throw new ValidationException(TimeToLiveMessages.alreadyDisabled);
    if (!enabled && current !== attributeName) {
      throw new ValidationException(TimeToLiveMessages.differentAttribute(current));
    }
    const now = engine.clock.now();
    if (setting.lastChangedAt !== undefined && now - setting.lastChangedAt < engine.ttlChangeLockoutMs) {
      throw new ValidationException(TimeToLiveMessages.tooSoon);
    }
    const apply = (target: Table) => {
      const targetSetting = target.timeToLive;
      targetSetting.status = enabled ? 'ENABLED' : 'DISABLED';
      targetSetting.attributeName = enabled ? attributeName : undefined;
      targetSetting.lastChangedAt = now;
      syncExpiryIndex(target);
    };
    apply(table);
    // Every other replica takes the setting (docs/global-tables.md §4); the first member runs
    // the deletions for the group.
    propagate(engine, otherMembers(region, table), (member) => apply(member.table));
    return { TimeToLiveSpecification: { AttributeName: attributeName, Enabled: enabled } };
  },
});
