import { updateInsights } from '../insights/contributorInsights.js';
import { defineOperation } from '../operation.js';
import {
  type UpdateContributorInsightsInput,
  updateContributorInsightsShape,
} from '../validations/updateContributorInsights.js';
import { insightsTarget } from './shared/insightsTarget.js';

/**
 * UpdateContributorInsights: ENABLE (ENABLING → ENABLED) or DISABLE (DISABLING → DISABLED) on a
 * table or one of its GSIs. ENABLE in the mode already set is a no-op answering ENABLED; omitting
 * the mode means ACCESSED_AND_THROTTLED_KEYS; DISABLE answers the current mode (recorded 2026,
 * docs/contributor-insights-and-endpoints.md §2.1). From the ENABLE on, eddy counts the table's
 * accessed and throttled partition keys.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContributorInsights.html
 */
export const updateContributorInsights = defineOperation<
  UpdateContributorInsightsInput,
  Record<string, unknown>
>({
  name: 'UpdateContributorInsights',
  shape: updateContributorInsightsShape,
  // The setting is part of the table's definition a data directory keeps (docs/persistence.md).
  changesTables: true,
  execute({ engine, region }, input) {
    const table = insightsTarget(region, input.TableName, input.IndexName);
    const { setting, answer } = updateInsights(
      engine,
      region,
      table,
      input.IndexName,
      input.ContributorInsightsAction,
      input.ContributorInsightsMode,
    );
    return {
      TableName: table.name,
      ...(input.IndexName === undefined ? {} : { IndexName: input.IndexName }),
      ContributorInsightsStatus: answer,
      ContributorInsightsMode: setting.mode,
    };
  },
});
