import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EddyConfig } from '../../infra/config.js';
import { eddy, ORDERS, removeTempDirs, tempDir } from './helpers.js';

// `eddy invoke` runs the handler as `eddy serve` does: a function with build settings (SAM's
// Metadata.BuildMethod esbuild and BuildProperties) runs its bundle, not its source
// (docs/templates.md §3.4).
afterAll(removeTempDirs);

/** A handler that only works bundled: `__STAGE__` exists once esbuild's `define` replaced it. */
const SOURCE = `
import { appendFileSync } from 'node:fs';
declare const __STAGE__: string;
export const handler = async (event: { Records: unknown[] }) => {
  appendFileSync(process.env.SEEN_FILE!, JSON.stringify({ stage: __STAGE__, records: event.Records.length }) + '\\n');
};
`;

const EVENT = {
  Records: [
    {
      eventID: '1',
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      dynamodb: {
        ApproximateCreationDateTime: 1767225600,
        Keys: { pk: { S: 'a' }, sk: { N: '1' } },
        NewImage: { pk: { S: 'a' }, sk: { N: '1' } },
        SequenceNumber: '100000000000000000001',
        SizeBytes: 20,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders/stream/2026-01-01T00:00:00.000',
    },
  ],
};

describe('eddy invoke of a function with build settings', () => {
  it('runs the bundle its build settings make, as eddy serve does', async () => {
    const directory = tempDir('invoke-build');
    const seen = join(directory, 'seen.jsonl');
    writeFileSync(join(directory, 'audit.ts'), SOURCE);
    writeFileSync(join(directory, 'event.json'), JSON.stringify(EVENT));
    const config: EddyConfig = {
      tables: [ORDERS],
      functions: {
        audit: {
          handler: 'audit.ts',
          environment: { SEEN_FILE: seen },
          build: { format: 'esm', define: { __STAGE__: '"bundled"' } },
          events: [{ stream: { table: 'Orders' } }],
        },
      },
    };
    writeFileSync(join(directory, 'eddy.config.json'), JSON.stringify(config));
    const run = await eddy(directory, 'invoke', 'audit', '--events', 'event.json');
    expect(run.code).toBe(0);
    expect(
      readFileSync(seen, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([{ stage: 'bundled', records: 1 }]);
    // Bundled into a folder of its own: a running `eddy serve` keeps its .eddy/build.
    expect(existsSync(join(directory, '.eddy', 'build-invoke', 'audit', 'audit.mjs'))).toBe(true);
    expect(existsSync(join(directory, '.eddy', 'build'))).toBe(false);
  });
});
