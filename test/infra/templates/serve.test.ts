import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../../infra/cli/program.js';
import { runProgram } from '../../helpers/command.js';
import { listening, startEddy, stopLeftovers } from '../../helpers/eddyProcess.js';

// What issue 18 promises, as a user runs it: `eddy serve` in a SAM project's folder, no eddy file,
// and the stream handler runs on the first write (a child process, real HTTP, the AWS SDK).
const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'templates', 'sam');
let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-serve-template-'));
  cpSync(FIXTURE, directory, { recursive: true });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(stopLeftovers);

const eddy = (args: string[], cwd = directory) => startEddy(args, cwd, join(ROOT, 'bin', 'eddy.mjs'));

async function until(check: () => boolean, what: () => string, timeoutMs = 15_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += 25) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting: ${what()}`);
}

describe('eddy serve in a SAM project', () => {
  it('takes template.yaml, says so, and runs the stream handler on the first write', async () => {
    const run = eddy(['serve', '--port', '0', '--parameter-overrides', 'Env=test']);
    const url = await listening(run);
    const banner = run.stdout;
    expect(banner).toContain(
      '  template template.yaml (SAM template, found in the working folder) (tables: test-orders, Payments)',
    );
    expect(banner).toContain('  function OnPlacedOrder ← test-orders stream');
    expect(banner).toContain('  function test-nightly ← rate(5 minutes)');
    expect(banner).toContain('  function LegacyAudit ← test-orders stream (not running: python3.12)');
    expect(banner).toContain('  ignored: 1 Api event, 1 AWS::Logs::LogGroup, 1 AWS::SNS::Topic');

    const client = new DynamoDBClient({
      endpoint: url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await client.send(
      new PutItemCommand({
        TableName: 'test-orders',
        Item: { orderId: { S: 'o-1' }, status: { S: 'placed' } },
      }),
    );
    client.destroy();
    await until(
      () => /^OnPlacedOrder \| .*placed o-1 in test-orders$/m.test(run.stdout),
      () => run.stdout,
    );
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('stops with the file, line and column of a bad template', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'eddy-serve-broken-'));
    try {
      writeFileSync(
        join(broken, 'template.yaml'),
        'Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Ref Stage\n',
      );
      // In process: the message is the point, not the process boundary.
      const run = await runProgram(createProgram, ['serve', '--port', '0'], broken);
      expect(run.code).toBe(1);
      expect(run.err).toEqual([
        `eddy: Bad template ${join(broken, 'template.yaml')}:5:23 (Resources.Orders.Properties.TableName.Ref): 'Stage' is not a parameter, a pseudo parameter or a resource of the template`,
      ]);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
