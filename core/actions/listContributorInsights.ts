import { ValidationException } from '../errors/index.js';
import { settingsOf } from '../insights/contributorInsights.js';
import { defineOperation } from '../operation.js';
import {
  type ListContributorInsightsInput,
  listContributorInsightsShape,
} from '../validations/listContributorInsights.js';
import { insightsTarget } from './shared/insightsTarget.js';

/** Summaries a page holds when MaxResults is not given (eddy's choice; the API's maximum is 100). */
const DEFAULT_PAGE = 100;

/**
 * ListContributorInsights: a summary per table and GSI whose insights are not DISABLED, in table
 * then index order, paged by MaxResults with an opaque NextToken
 * (docs/contributor-insights-and-endpoints.md §2.4).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListContributorInsights.html
 */
export const listContributorInsights = defineOperation<ListContributorInsightsInput, Record<string, unknown>>(
  {
    name: 'ListContributorInsights',
    shape: listContributorInsightsShape,
    execute({ region }, input) {
      const tables =
        input.TableName === undefined
          ? [...region.tables.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          : [insightsTarget(region, input.TableName, undefined)];
      const summaries: Record<string, unknown>[] = [];
      for (const table of tables)
        for (const setting of settingsOf(table).values()) {
          if (setting.status === 'DISABLED') continue;
          summaries.push({
            TableName: table.name,
            ...(setting.indexName === undefined ? {} : { IndexName: setting.indexName }),
            ContributorInsightsStatus: setting.status,
            ContributorInsightsMode: setting.mode,
          });
        }
      let start = 0;
      if (input.NextToken !== undefined) {
        start = Number.parseInt(input.NextToken, 10);
        if (!/^\d+$/.test(input.NextToken) || start > summaries.length)
          throw new ValidationException('Invalid NextToken');
      }
      const size = input.MaxResults ?? DEFAULT_PAGE;
      const page = summaries.slice(start, start + size);
      const output: Record<string, unknown> = { ContributorInsightsSummaries: page };
      if (start + size < summaries.length) output.NextToken = String(start + size);
      return output;
    },
  },
);
