import { createRequire } from 'node:module';
import type { Cron } from 'croner';

// croner (~33 KB) loads at the first cron or at expression, with `require` (its CommonJS build):
// parsing is synchronous, and most stacks have rate schedules or none (the TTL expirer's is a
// rate), so `eddy serve` does not evaluate it at every start.
const require = createRequire(import.meta.url);
let cronClass: typeof Cron | undefined;
const croner = () => (cronClass ??= (require('croner') as typeof import('croner')).Cron);

/**
 * EventBridge schedule expressions (docs/templates.md §3.6): `rate(5 minutes)`, `cron(...)` and
 * (EventBridge Scheduler) `at(yyyy-mm-ddThh:mm:ss)`, as a timing: when the next run after a moment
 * is due. Cron and at expressions read in UTC, or in the schedule's time zone
 * (`ScheduleExpressionTimezone`, Scheduler only).
 *
 * Cron expressions have EventBridge's six fields, `minutes hours day-of-month month day-of-week
 * year`, with `, - * / ? L W #`; one of day-of-month and day-of-week must be `?`; days of the week
 * are 1-7 from Sunday (or SUN-SAT).
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-scheduled-rule-pattern.html
 * https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html
 *
 * The calendar arithmetic is croner's (a maintained cron library that has the year field, `L`,
 * `W`, `#`, Quartz's 1-7 weekdays and IANA time zones); this module holds EventBridge's rules.
 */
export type ScheduleTiming =
  | { readonly kind: 'rate'; readonly rateMs: number }
  | {
      readonly kind: 'cron' | 'at';
      /** The first run strictly after `afterMs` (epoch ms), or undefined when none is left. */
      next(afterMs: number): number | undefined;
    };

/** An expression EventBridge would refuse; `reason` says why. */
export class ScheduleExpressionError extends Error {
  override readonly name = 'ScheduleExpressionError';
}

const RATE = /^rate\(\s*(\d+)\s+(minute|minutes|hour|hours|day|days)\s*\)$/;
const CRON = /^cron\((.*)\)$/;
const AT = /^at\((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\)$/;
const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/**
 * The timing of an expression.
 * @throws ScheduleExpressionError for an expression EventBridge would refuse, or an unknown zone.
 */
export function parseScheduleExpression(expression: string, timezone?: string): ScheduleTiming {
  const text = expression.trim();
  const rate = RATE.exec(text);
  if (rate !== null) {
    const value = Number(rate[1]);
    // "The value must be a positive number" (rate expressions, EventBridge user guide).
    if (value <= 0) throw new ScheduleExpressionError(`${text}: the value of a rate must be positive`);
    // "If the value is equal to 1, then the unit must be singular ... greater than 1 ... plural".
    const unit = rate[2]!;
    if ((value === 1) !== !unit.endsWith('s'))
      throw new ScheduleExpressionError(
        `${text}: a rate of 1 takes a singular unit (minute), other values a plural one (minutes)`,
      );
    return { kind: 'rate', rateMs: value * UNIT_MS[unit.replace(/s$/, '') as keyof typeof UNIT_MS] };
  }
  const zone = checkedZone(timezone, text);
  const cron = CRON.exec(text);
  if (cron !== null) return cronTiming(cron[1]!.trim(), zone, text);
  const at = AT.exec(text);
  if (at !== null) return atTiming(at, zone, text);
  throw new ScheduleExpressionError(
    `${text} is not a schedule expression: use rate(value unit), cron(minutes hours day-of-month month day-of-week year) or at(yyyy-mm-ddThh:mm:ss)`,
  );
}

function checkedZone(timezone: string | undefined, text: string): string {
  if (timezone === undefined || timezone === '') return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ScheduleExpressionError(
      `${text}: '${timezone}' is not a time zone (an IANA name such as Europe/Paris)`,
    );
  }
  return timezone;
}

function cronTiming(fields: string, timezone: string, text: string): ScheduleTiming {
  const parts = fields.split(/\s+/);
  if (parts.length !== 6)
    throw new ScheduleExpressionError(
      `${text}: a cron expression has six fields (minutes hours day-of-month month day-of-week year), not ${parts.length}`,
    );
  const [, , dayOfMonth, , dayOfWeek] = parts as [string, string, string, string, string, string];
  // "You can't specify the Day-of-month and Day-of-week fields in the same cron expression. If you
  // specify a value or a * (asterisk) in one of the fields, you must use a ? (question mark) in
  // the other."
  if ((dayOfMonth === '?') === (dayOfWeek === '?'))
    throw new ScheduleExpressionError(`${text}: one of day-of-month and day-of-week must be ?, and only one`);
  let cron: Cron;
  try {
    // croner's seven fields start with seconds; EventBridge runs on the minute.
    cron = new (croner())(`0 ${parts.join(' ')}`, {
      timezone,
      paused: true,
      mode: '7-part',
      // Quartz's weekdays, as EventBridge's: 1 is Sunday, 7 Saturday.
      alternativeWeekdays: true,
      // `0/15` (start/step), as EventBridge writes steps.
      sloppyRanges: true,
    });
  } catch (error) {
    throw new ScheduleExpressionError(`${text}: ${(error as Error).message.replace(/^CronPattern: /, '')}`);
  }
  return {
    kind: 'cron',
    next: (afterMs) => cron.nextRun(new Date(afterMs))?.getTime(),
  };
}

function atTiming(match: RegExpExecArray, timezone: string, text: string): ScheduleTiming {
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    throw new ScheduleExpressionError(`${text}: not a date and time`);
  const wall = text.slice(3, -1);
  // croner's one-off form: the ISO local time read in the zone.
  const once = new (croner())(wall, { timezone, paused: true });
  const at = once.getOnce()?.getTime();
  if (at === undefined) throw new ScheduleExpressionError(`${text}: not a date and time`);
  return { kind: 'at', next: (afterMs) => (at > afterMs ? at : undefined) };
}
