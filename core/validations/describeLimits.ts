import type { Shape } from './shape.js';

/**
 * DescribeLimits: no input members.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeLimits.html
 */
export type DescribeLimitsInput = Record<string, never>;

export const describeLimitsShape: Record<string, Shape> = {};
