import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type TestStack } from '../../infra/testing/index.js';

/** A test stack on a virtual clock whose buckets are folders of a temp dir (bucket `exports` made). */
export async function backupStack(): Promise<{
  stack: TestStack;
  bucketsDir: string;
  close: () => Promise<void>;
}> {
  const bucketsDir = mkdtempSync(join(tmpdir(), 'eddy-buckets-'));
  mkdirSync(join(bucketsDir, 'exports'));
  const stack = await startStack({}, { buckets: { directory: bucketsDir } });
  return {
    stack,
    bucketsDir,
    close: async () => {
      await stack.close();
      rmSync(bucketsDir, { recursive: true, force: true });
    },
  };
}

export const ACCOUNT = '000000000000';
export const REGION = 'us-east-1';
export const arnOf = (table: string) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${table}`;
