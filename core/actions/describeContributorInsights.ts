import { ruleNames, settingOf } from '../insights/contributorInsights.js';
import { defineOperation } from '../operation.js';
import {
  type DescribeContributorInsightsInput,
  describeContributorInsightsShape,
} from '../validations/describeContributorInsights.js';
import { insightsTarget } from './shared/insightsTarget.js';

/**
 * DescribeContributorInsights: the status, mode, last change and the names of the CloudWatch rules
 * DynamoDB makes (docs/contributor-insights-and-endpoints.md §2.2). A table never enabled answers
 * DISABLED. The rules' figures (the most accessed and throttled keys) are eddy's counts, at
 * `GET /_eddy/metrics` (docs/contributor-insights-and-endpoints.md §2.3).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeContributorInsights.html
 */
export const describeContributorInsights = defineOperation<
  DescribeContributorInsightsInput,
  Record<string, unknown>
>({
  name: 'DescribeContributorInsights',
  shape: describeContributorInsightsShape,
  execute({ region }, input) {
    const table = insightsTarget(region, input.TableName, input.IndexName);
    const setting = settingOf(table, input.IndexName);
    const output: Record<string, unknown> = {
      TableName: table.name,
      ...(input.IndexName === undefined ? {} : { IndexName: input.IndexName }),
    };
    if (setting === undefined) {
      output.ContributorInsightsStatus = 'DISABLED';
      return output;
    }
    if (setting.status !== 'DISABLED') output.ContributorInsightsRuleList = ruleNames(setting);
    output.ContributorInsightsStatus = setting.status;
    output.LastUpdateDateTime = setting.updatedAt / 1000;
    output.ContributorInsightsMode = setting.mode;
    return output;
  },
});
