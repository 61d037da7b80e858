import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, checkConfig } from '../../infra/cli/loadConfig.js';
import { serve } from '../../infra/cli/serve.js';

/** The config's `capacity` block and `eddy serve --capacity enforce` (docs/capacity.md §1). */
function problem(config: unknown): string {
  try {
    checkConfig(config, 'eddy.config.json');
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return 'accepted';
}

describe('the capacity block', () => {
  it('accepts a mode, tables, burst seconds and faults', () => {
    expect(
      problem({
        capacity: {
          mode: 'enforce',
          tables: ['Orders'],
          burstSeconds: 0,
          faults: [{ table: 'Orders', fault: 'InternalServerError', times: 2 }],
        },
      }),
    ).toBe('accepted');
  });

  it.each([
    [{ mode: 'on' }, "capacity.mode: must be 'enforce' or 'off'"],
    [{ tables: 'Orders' }, 'capacity.tables: must be a list of table names'],
    [{ burstSeconds: -1 }, 'capacity.burstSeconds: must be a number of seconds, 0 or more'],
    [
      { faults: [{ table: 'Orders', fault: 'boom' }] },
      "capacity.faults[0].fault: must be 'throttle' or 'InternalServerError'",
    ],
    [
      { faults: [{ table: 'Orders', fault: 'throttle', times: 0 }] },
      'capacity.faults[0].times: must be a positive integer',
    ],
    [{ burst: 3 }, 'capacity.burst: is not a setting'],
  ])('refuses %j, naming the setting', (capacity, message) => {
    expect(problem({ capacity })).toContain(message);
  });
});

describe('eddy serve --capacity enforce', () => {
  it('enforces capacity on every table', async () => {
    const running = await serve(
      { config: false, port: 0, capacity: 'enforce' },
      { print: () => {}, cwd: tmpdir() },
    );
    try {
      const demo = running.engine.region().tables.get('Demo')!;
      expect(running.engine.capacity.enforces(demo)).toBe(true);
    } finally {
      await running.close();
    }
  });
});
