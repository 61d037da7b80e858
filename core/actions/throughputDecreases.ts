import { LimitExceededException } from '../errors/index.js';
import type { ThroughputState } from '../store/table.js';

/**
 * The daily limit on provisioned-throughput decreases (docs/capacity.md §2.3), per table and per
 * GSI apart: "On a given day, you can start by performing up to four decreases [...]
 * Subsequently, you can perform one additional decrease per hour as long as there was no
 * decreases in the preceding hour [...] 27 times" a day, "A day is defined according to [UTC]";
 * "Table and global secondary index decrease limits are decoupled [...] if a single request
 * decreases the throughput for a table and a global secondary index, it is rejected if either
 * exceeds the current limits"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-decreasing-provisioned-throughput).
 * The recordings pin the rule down (ack-api-quirks DDB-TABLE-184, -185, -326, verified
 * 2026-10-09): four decreases back to back at any time of the day, then one 3600 s after the last
 * accepted one (not at the top of the hour); a call that lowers either unit counts once; the
 * counter goes back to 0 at 00:00 UTC; rejected calls move nothing.
 */
export const DecreaseLimits = {
  freeDecreases: 4,
  spacingMs: 3600 * 1000,
} as const;

const DAY_MS = 24 * 3600 * 1000;

function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/**
 * Today's count, derived from the clock: the stored count belongs to the UTC day it was counted
 * on (`decreasesDay`), and reads as 0 on any later day (DDB-TABLE-185). Nothing resets it, so
 * DescribeTable, UpdateTable and the limit check all see the same figure at the same instant,
 * whichever ran first. A state from before `decreasesDay` existed dates its count by
 * `lastDecreaseDateTime`.
 */
export function decreasesToday(state: ThroughputState, now: number): number {
  const count = state.numberOfDecreasesToday;
  if (count === 0) return 0;
  const day = countDay(state);
  return day === undefined || day >= utcDay(now) ? count : 0;
}

function countDay(state: ThroughputState): number | undefined {
  const last = state.lastDecreaseDateTime;
  return state.decreasesDay ?? (last === undefined ? undefined : utcDay(last));
}

/** The count and its day, carried over when a state is replaced (a billing-mode switch). */
export function carriedDecreases(
  state: ThroughputState | undefined,
): Pick<ThroughputState, 'numberOfDecreasesToday' | 'decreasesDay'> {
  if (state === undefined) return { numberOfDecreasesToday: 0 };
  const day = countDay(state);
  return day === undefined
    ? { numberOfDecreasesToday: state.numberOfDecreasesToday }
    : { numberOfDecreasesToday: state.numberOfDecreasesToday, decreasesDay: day };
}

/** Counts one applied decrease, on the UTC day it was applied (docs/capacity.md §2.3). */
export function countDecrease(state: ThroughputState, at: number): void {
  state.numberOfDecreasesToday = decreasesToday(state, at) + 1;
  state.decreasesDay = utcDay(at);
}

/** Whether a requested throughput lowers either unit. */
export function isDecrease(
  state: ThroughputState,
  requested: { ReadCapacityUnits: number; WriteCapacityUnits: number },
): boolean {
  return (
    requested.ReadCapacityUnits < state.readCapacityUnits ||
    requested.WriteCapacityUnits < state.writeCapacityUnits
  );
}

/**
 * Throws the service's LimitExceededException when a decrease is not allowed now: after the
 * first four of the UTC day, one per 3600 s after the last. The message names the next allowed
 * time: the last decrease + 3600 s, or the next 00:00 UTC when that comes first (DDB-TABLE-184,
 * -326).
 */
export function checkDecreaseAllowed(state: ThroughputState, now: number): void {
  const count = decreasesToday(state, now);
  const last = state.lastDecreaseDateTime;
  if (count < DecreaseLimits.freeDecreases || last === undefined) return;
  if (now - last >= DecreaseLimits.spacingMs) return;
  const next = Math.min(last + DecreaseLimits.spacingMs, (utcDay(now) + 1) * DAY_MS);
  throw new LimitExceededException(
    'Subscriber limit exceeded: Provisioned throughput decreases are limited within a given UTC day. ' +
      `After the first ${DecreaseLimits.freeDecreases} decreases, each subsequent decrease in the same UTC day can be performed at most once every 3600 seconds. ` +
      `Number of decreases today: ${count}. Last decrease at ${serviceDate(last)}. Next decrease can be made at ${serviceDate(next)}`,
  );
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * A time as the 2026 messages write it: `Thursday, October 8, 2026 at 11:20:48 PM Coordinated
 * Universal Time` (DDB-TABLE-184; Intl's own output varies with the ICU version, e.g. its narrow
 * no-break space before PM, so it is spelled out here).
 */
export function serviceDate(ms: number): string {
  const date = new Date(ms);
  const hours = date.getUTCHours();
  const clock = [hours % 12 === 0 ? 12 : hours % 12, date.getUTCMinutes(), date.getUTCSeconds()]
    .map((part, index) => (index === 0 ? String(part) : String(part).padStart(2, '0')))
    .join(':');
  return (
    `${WEEKDAYS[date.getUTCDay()]}, ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()} ` +
    `at ${clock} ${hours < 12 ? 'AM' : 'PM'} Coordinated Universal Time`
  );
}
