import type { StringShape } from './shape.js';

/** ContributorInsightsMode (API reference, 2025): every key, or throttled keys only. */
export const contributorInsightsMode: StringShape = {
  kind: 'string',
  enum: ['ACCESSED_AND_THROTTLED_KEYS', 'THROTTLED_KEYS'],
};
