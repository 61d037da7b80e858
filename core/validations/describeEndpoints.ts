import type { Shape } from './shape.js';

/**
 * DescribeEndpoints: no input members.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeEndpoints.html
 */
export type DescribeEndpointsInput = Record<string, never>;

export const describeEndpointsShape: Record<string, Shape> = {};
