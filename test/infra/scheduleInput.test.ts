import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from 'eddy/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BindingError, bindingsOf } from '../../infra/bindings.js';
import type { EddyConfig } from '../../infra/config.js';
import { scheduleEvent } from '../../infra/synth/functions.js';

// A schedule's Input: the event the function gets instead of the Scheduled Event, as an EventBridge
// target's Input is (https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_Target.html).
let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-input-'));
  writeFileSync(join(directory, 'report.mjs'), 'export const handler = async (event) => event;\n');
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const config = (Input: string): EddyConfig => ({
  functions: {
    report: { handler: 'report.mjs', events: [{ schedule: { rate: 'rate(1 hour)', Input } }] },
  },
});

describe("a schedule's Input", () => {
  it('is the event of each run', async () => {
    const stack = await startStack(config('{"report":"hourly","n":1}'), { baseDirectory: directory });
    try {
      await stack.advance('1h');
      await stack.advance('1h');
      expect(stack.invocations('report').map((invocation) => invocation.result)).toEqual([
        { report: 'hourly', n: 1 },
        { report: 'hourly', n: 1 },
      ]);
    } finally {
      await stack.close();
    }
  });

  it('must be JSON text, as EventBridge requires', () => {
    expect(() => bindingsOf(config('{not json'), directory)).toThrow(BindingError);
    expect(() => bindingsOf(config('{not json'), directory)).toThrow(
      /events\[0\]\.schedule\.Input: must be valid JSON text/,
    );
  });

  it('is written into the SAM Schedule event by eddy synth', () => {
    const [binding] = bindingsOf(config('{"a":1}'), directory);
    expect(scheduleEvent(binding!.schedules[0]!, 'functions.report.events[0].schedule', () => {})).toEqual({
      Type: 'Schedule',
      Properties: { Schedule: 'rate(1 hour)', Enabled: true, Input: '{"a":1}' },
    });
  });
});
