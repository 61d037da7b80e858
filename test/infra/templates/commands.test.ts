import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addBuildCommand } from '../../../infra/cli/commands/build.js';
import { addInvokeCommand } from '../../../infra/cli/commands/invoke.js';
import { addSynthCommand } from '../../../infra/cli/commands/synth.js';
import { runCommand } from '../../helpers/command.js';

// `eddy build`, `synth` and `invoke` on a SAM project, found in the folder or named by --template.
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'templates', 'sam');
let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-template-commands-'));
  cpSync(FIXTURE, directory, { recursive: true });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('commands on a template', () => {
  it('eddy build bundles the Node.js functions, names the template it found and leaves the Python one', async () => {
    const run = await runCommand(addBuildCommand, ['build', '--out', 'dist'], directory);
    expect(run.code).toBe(0);
    expect(run.err).toEqual(['eddy: using template.yaml (SAM template, found in the working folder)']);
    expect(run.out.at(-1)).toMatch(/^3 functions built in/);
    expect(existsSync(join(directory, 'dist', 'functions', 'OnPayment.zip'))).toBe(true);
    expect(existsSync(join(directory, 'dist', 'functions', 'LegacyAudit.zip'))).toBe(false);
  });

  it('eddy synth --template writes the stack as a SAM template of eddy bundles', async () => {
    const run = await runCommand(
      addSynthCommand,
      ['synth', '--template', 'template.yaml', '--parameter-overrides', 'Env=prod', '--build-dir', 'dist'],
      directory,
    );
    expect(run.code).toBe(0);
    expect(run.err).toContain(
      'eddy synth: warning: functions.LegacyAudit runs on python3.12, which eddy does not build; not deployed',
    );
    const template = parse(run.out.join('\n')) as {
      Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
    };
    const tables = Object.values(template.Resources).filter(
      (resource) => resource.Type === 'AWS::DynamoDB::Table',
    );
    expect(tables.map((table) => table.Properties.TableName)).toEqual(['prod-orders', 'Payments']);
    // The production condition of the template held: deletion protection is on.
    expect(tables[0]!.Properties.DeletionProtectionEnabled).toBe(true);
  });

  it('eddy invoke replays records through a template function with its mapping settings', async () => {
    const record = (amount: number, sequence: string) => ({
      eventID: sequence,
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/Payments/stream/2026-01-01T00:00:00.000',
      dynamodb: {
        ApproximateCreationDateTime: 1767225600,
        Keys: { pk: { S: 'acct-1' }, sk: { S: `pay-${sequence}` } },
        NewImage: { pk: { S: 'acct-1' }, sk: { S: `pay-${sequence}` }, amount: { N: String(amount) } },
        SequenceNumber: sequence,
        SizeBytes: 50,
        StreamViewType: 'NEW_IMAGE',
      },
    });
    writeFileSync(
      join(directory, 'events.json'),
      JSON.stringify({ Records: [record(5, '100'), record(-1, '200')] }),
    );
    const run = await runCommand(
      addInvokeCommand,
      ['invoke', 'OnPayment', '--template', '.', '--events', 'events.json', '--json', '--no-logs'],
      directory,
    );
    const report = JSON.parse(run.out.join('\n')) as {
      destinations: unknown[];
      invocations: { eventIds: string[]; retry: boolean; batchItemFailures: string[] }[];
    };
    // The negative payment fails alone, is retried once (MaximumRetryAttempts 1), then goes to the destination.
    const failing = report.invocations.filter((invocation) => invocation.eventIds.includes('200'));
    expect(failing.map((invocation) => [invocation.retry, invocation.batchItemFailures])).toEqual([
      [false, ['200']],
      [true, ['200']],
    ]);
    expect(report.destinations).toHaveLength(1);
    expect(run.code).toBe(1);
  });
});
