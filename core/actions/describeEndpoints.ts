import { defineOperation } from '../operation.js';
import { type DescribeEndpointsInput, describeEndpointsShape } from '../validations/describeEndpoints.js';

/**
 * How long a client may keep the answer: the service answers 1440 minutes (one day), as moto's
 * model of it does (moto/dynamodb/models/__init__.py, `describe_endpoints`).
 */
export const ENDPOINT_CACHE_MINUTES = 1440;

/**
 * DescribeEndpoints: where the caller should send its requests. The service names its regional
 * host (`dynamodb.us-east-1.amazonaws.com`); eddy names the host the request reached it at (its
 * `Host` header, port included), so a client that follows endpoint discovery stays on eddy. A
 * request with no `Host` (the engine called directly) gets the regional name.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeEndpoints.html
 */
export const describeEndpoints = defineOperation<DescribeEndpointsInput, Record<string, unknown>>({
  name: 'DescribeEndpoints',
  shape: describeEndpointsShape,
  readsHost: true,
  execute({ request }) {
    const address = request.host ?? `dynamodb.${request.region}.amazonaws.com`;
    return { Endpoints: [{ Address: address, CachePeriodInMinutes: ENDPOINT_CACHE_MINUTES }] };
  },
});
