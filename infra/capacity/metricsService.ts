import type { Engine } from '../../core/engine.js';
import { insightsFigures } from '../../core/insights/contributorInsights.js';
import type { RestService } from '../host/restService.js';

/** eddy's capacity figures, JSON and unsigned like `/_eddy/health` (docs/capacity.md §7). */
export const METRICS_PATH = '/_eddy/metrics';

/**
 * `GET /_eddy/metrics`: `{ "Tables": [ResourceFigures...] }`, one entry per table and per GSI that
 * consumed or was throttled while capacity was enforced or faults injected: consumed read and
 * write units and throttle events since start (CloudWatch's `ConsumedReadCapacityUnits`,
 * `ReadThrottleEvents`...), and the units of the last whole second.
 */
export function capacityMetricsService(engine: Engine): RestService {
  return {
    name: 'EddyMetrics',
    signingName: undefined,
    owns: (path) => path === METRICS_PATH,
    routes: [
      {
        method: 'GET',
        path: METRICS_PATH,
        operation: 'GetCapacityMetrics',
        handle: () => ({
          status: 200,
          body: {
            Tables: engine.capacity.metrics.snapshot(engine.clock.now()),
            // Contributor Insights: the most accessed and throttled partition keys per table and
            // GSI with insights on (docs/contributor-insights-and-endpoints.md §2.3).
            ContributorInsights: insightsFigures(engine),
          },
        }),
      },
    ],
    unknownRoute: (request) => ({ status: 404, body: { message: `No eddy endpoint at ${request.path}` } }),
    errorAnswer: () => undefined,
    internalError: () => ({ status: 500, body: { message: 'Internal error' } }),
  };
}
