export { invocationContext, type ScheduledEventInit, scheduledEvent } from './scheduledEvent.js';
export {
  type Schedule,
  type ScheduledFunction,
  type ScheduleOptions,
  scheduleFunction,
} from './scheduleFunction.js';
export {
  DEFAULT_TTL_RATE,
  STATUS_COUNT_LIMIT,
  startTtlExpirer,
  type TtlExpirer,
  type TtlExpirerOptions,
  type TtlStatus,
} from './ttlExpirer.js';
