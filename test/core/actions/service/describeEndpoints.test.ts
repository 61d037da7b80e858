import { DescribeEndpointsCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTransport, localTransport, type TransportHandle } from '../../../helpers/transports.js';

/**
 * DescribeEndpoints names where to send requests, cached for 1440 minutes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeEndpoints.html;
 * the 1440 as moto answers it, moto/dynamodb/models/__init__.py). eddy names the host it was
 * reached at, so endpoint discovery keeps a client on eddy (docs/contributor-insights-and-endpoints.md).
 */
describe('DescribeEndpoints', () => {
  let eddy: TransportHandle;
  afterEach(() => eddy.close());

  describe('over HTTP', () => {
    beforeEach(async () => {
      eddy = await httpTransport.start();
    });

    it('answers the host and port the request reached, cached for a day', async () => {
      const output = await eddy.client.send(new DescribeEndpointsCommand({}));
      const { host } = new URL(eddy.endpoint!);
      expect(output.Endpoints).toEqual([{ Address: host, CachePeriodInMinutes: 1440 }]);
    });
  });

  describe('in process', () => {
    beforeEach(async () => {
      eddy = await localTransport.start();
    });

    it('answers the host the client addressed', async () => {
      const output = await eddy.client.send(new DescribeEndpointsCommand({}));
      expect(output.Endpoints).toHaveLength(1);
      expect(output.Endpoints![0]!.CachePeriodInMinutes).toBe(1440);
      expect(output.Endpoints![0]!.Address).toMatch(/\S/);
    });
  });

  it('answers the regional name when the engine is called without a request', async () => {
    eddy = await localTransport.start();
    expect(eddy.engine.execute('DescribeEndpoints', {}, { region: 'eu-west-1' })).toEqual({
      Endpoints: [{ Address: 'dynamodb.eu-west-1.amazonaws.com', CachePeriodInMinutes: 1440 }],
    });
  });
});
