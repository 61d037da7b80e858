import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type TestStack } from 'eddy/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BindingError, bindingsOf } from '../../infra/bindings.js';
import { parseScheduleExpression } from '../../infra/schedules/scheduleExpression.js';
import { scheduleEvent } from '../../infra/synth/functions.js';

// cron(...) and at(...) schedules on the stack's clock (docs/templates.md §3.6). The expectations
// are the examples of the EventBridge user guide ("Cron expressions": their stated meaning,
// https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-scheduled-rule-pattern.html) and
// the Scheduler's one-time schedules (https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html).
let directory: string;
let stack: TestStack | undefined;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-cron-'));
  writeFileSync(
    join(directory, 'report.mjs'),
    'export const handler = async (event) => event.time ?? event;\n',
  );
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
/** The next `count` runs after `from` (ISO), in UTC. */
function runs(expression: string, from: string, count = 2, timezone?: string): (string | undefined)[] {
  const timing = parseScheduleExpression(expression, timezone);
  if (timing.kind === 'rate') throw new Error('not a cron');
  const out: (string | undefined)[] = [];
  let at = Date.parse(from);
  for (let i = 0; i < count; i++) {
    const next = timing.next(at);
    out.push(iso(next));
    if (next === undefined) break;
    at = next;
  }
  return out;
}

describe("EventBridge's cron expressions", () => {
  // 2026-01-01 is a Thursday.
  it('the user guide examples run when it says they do', () => {
    // "Run at 10:00 am (UTC+0) every day"
    expect(runs('cron(0 10 * * ? *)', '2026-01-01T00:00:00Z')).toEqual([
      '2026-01-01T10:00:00.000Z',
      '2026-01-02T10:00:00.000Z',
    ]);
    // "Run at 12:15 pm (UTC+0) every day"
    expect(runs('cron(15 12 * * ? *)', '2026-01-01T13:00:00Z', 1)).toEqual(['2026-01-02T12:15:00.000Z']);
    // "Run at 6:00 pm (UTC+0) every Monday through Friday" (Friday, then Monday)
    expect(runs('cron(0 18 ? * MON-FRI *)', '2026-01-02T19:00:00Z', 1)).toEqual(['2026-01-05T18:00:00.000Z']);
    // "Run at 8:00 am (UTC+0) every first day of the month"
    expect(runs('cron(0 8 1 * ? *)', '2026-01-01T09:00:00Z', 1)).toEqual(['2026-02-01T08:00:00.000Z']);
    // "Run every 15 minutes"
    expect(runs('cron(0/15 * * * ? *)', '2026-01-01T00:00:00Z')).toEqual([
      '2026-01-01T00:15:00.000Z',
      '2026-01-01T00:30:00.000Z',
    ]);
    // "Run every 5 minutes Monday through Friday between 8:00 am and 5:55 pm (UTC+0)"
    expect(runs('cron(0/5 8-17 ? * MON-FRI *)', '2026-01-02T17:55:00Z', 1)).toEqual([
      '2026-01-05T08:00:00.000Z',
    ]);
    // "Run at 9:00 am (UTC+0) on the first Monday of each month" (day-of-week 1 is Sunday)
    expect(runs('cron(0 9 ? * 2#1 *)', '2026-01-01T00:00:00Z')).toEqual([
      '2026-01-05T09:00:00.000Z',
      '2026-02-02T09:00:00.000Z',
    ]);
  });

  it('has L (last day), W (nearest weekday), # and a year field', () => {
    expect(runs('cron(0 12 L * ? *)', '2026-01-01T00:00:00Z')).toEqual([
      '2026-01-31T12:00:00.000Z',
      '2026-02-28T12:00:00.000Z',
    ]);
    // The 15th of February 2026 is a Sunday: the nearest weekday is Monday the 16th.
    expect(runs('cron(0 12 15W * ? *)', '2026-02-01T00:00:00Z', 1)).toEqual(['2026-02-16T12:00:00.000Z']);
    // The last Friday (6L).
    expect(runs('cron(0 0 ? * 6L *)', '2026-01-01T00:00:00Z', 1)).toEqual(['2026-01-30T00:00:00.000Z']);
    // No year left: no run.
    expect(runs('cron(0 0 1 1 ? 2025)', '2026-01-01T00:00:00Z', 1)).toEqual([undefined]);
  });

  it('reads ScheduleExpressionTimezone, daylight saving time included', () => {
    // 10:00 in New York is 15:00 UTC in winter (EST) and 14:00 in summer (EDT).
    expect(runs('cron(0 10 * * ? *)', '2026-01-01T00:00:00Z', 1, 'America/New_York')).toEqual([
      '2026-01-01T15:00:00.000Z',
    ]);
    expect(runs('cron(0 10 * * ? *)', '2026-07-01T00:00:00Z', 1, 'America/New_York')).toEqual([
      '2026-07-01T14:00:00.000Z',
    ]);
    expect(runs('at(2026-06-01T09:00:00)', '2026-01-01T00:00:00Z', 2, 'Europe/Paris')).toEqual([
      '2026-06-01T07:00:00.000Z',
      undefined,
    ]);
  });

  it('refuses what EventBridge refuses, naming the binding', () => {
    const bad = (rate: string, Timezone?: string) => () =>
      bindingsOf(
        {
          functions: {
            report: {
              handler: 'report.mjs',
              events: [{ schedule: { rate, ...(Timezone === undefined ? {} : { Timezone }) } }],
            },
          },
        },
        directory,
      );
    // "If you specify a value or a * in one of the fields, you must use a ? in the other."
    expect(bad('cron(0 10 * * * *)')).toThrow(BindingError);
    expect(bad('cron(0 10 * * * *)')).toThrow(
      /events\[0\]\.schedule\.rate: .*one of day-of-month and day-of-week must be \?/,
    );
    expect(bad('cron(0 10 * * ?)')).toThrow(/six fields/);
    expect(bad('at(2026-02-30T10:00:00)')).toThrow(/not a date and time/);
    expect(bad('cron(0 10 * * ? *)', 'Mars/Olympus')).toThrow(/not a time zone/);
    expect(bad('rate(5 minutes)', 'Europe/Paris')).toThrow(/Timezone: applies to cron/);
  });
});

describe('cron and at schedules in a stack', () => {
  it('run once at each due time the virtual clock passes, with the Scheduled Event or their Input', async () => {
    stack = await startStack(
      {
        functions: {
          report: {
            handler: 'report.mjs',
            events: [
              { schedule: { rate: 'cron(0 10 * * ? *)' } },
              {
                schedule: {
                  rate: 'at(2026-01-01T12:30:00)',
                  Timezone: 'Europe/Paris',
                  Input: '{"once":true}',
                },
              },
            ],
          },
        },
      },
      { baseDirectory: directory },
    );
    await stack.advance('9h');
    expect(stack.invocations('report')).toHaveLength(0);
    await stack.advance('1h');
    // The event's time is when the rule fired (docs/streams-and-lambda.md §4.9).
    expect(stack.invocations('report').map((entry) => entry.result)).toEqual(['2026-01-01T10:00:00Z']);
    // 12:30 in Paris is 11:30 UTC; the virtual clock steps through each due time: the at()
    // schedule once, the cron once a day.
    await stack.advance('2d');
    expect(stack.invocations('report').map((entry) => entry.result)).toEqual([
      '2026-01-01T10:00:00Z',
      { once: true },
      '2026-01-02T10:00:00Z',
      '2026-01-03T10:00:00Z',
    ]);
  });

  it('are written back by eddy synth: cron as a Schedule event, at() and time zones as ScheduleV2', () => {
    const [binding] = bindingsOf(
      {
        functions: {
          report: {
            handler: 'report.mjs',
            events: [
              { schedule: { rate: 'cron(0 10 * * ? *)' } },
              { schedule: { rate: 'cron(0 10 * * ? *)', Timezone: 'Europe/Paris', Enabled: false } },
            ],
          },
        },
      },
      directory,
    );
    expect(scheduleEvent(binding!.schedules[0]!, 'p', () => {})).toEqual({
      Type: 'Schedule',
      Properties: { Schedule: 'cron(0 10 * * ? *)', Enabled: true },
    });
    expect(scheduleEvent(binding!.schedules[1]!, 'p', () => {})).toEqual({
      Type: 'ScheduleV2',
      Properties: {
        ScheduleExpression: 'cron(0 10 * * ? *)',
        ScheduleExpressionTimezone: 'Europe/Paris',
        State: 'DISABLED',
      },
    });
  });
});
