import type { EddyConfig } from '../config.js';

/** The change-log settings the config sets (`streams`), for the stack and for replay alike. */
export function streamSettings(config: EddyConfig) {
  const streams = config.streams ?? {};
  return {
    ...(streams.shardCount === undefined ? {} : { shardCount: streams.shardCount }),
    ...(streams.rolloverPeriod === undefined ? {} : { rolloverPeriod: streams.rolloverPeriod }),
    ...(streams.retention === undefined ? {} : { retention: streams.retention }),
  };
}
