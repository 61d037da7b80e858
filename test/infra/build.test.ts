import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { Metafile } from 'esbuild';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artefactsOf } from '../../infra/build/artefacts.js';
import { builtInEntries, mergeEntries, projectEntries } from '../../infra/build/bundleFunctions.js';
import { BuildError } from '../../infra/build/errors.js';
import { lambdaZip } from '../../infra/build/zip.js';
import { addBuildCommand } from '../../infra/cli/commands/build.js';
import { runCommand } from '../helpers/command.js';

// `eddy build` through its command, on the votes example, into a temp dir; then the bundles run.
const execFileAsync = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const VOTES_CONFIG = join(ROOT, 'examples', 'votes', 'eddy.config.ts');
const directory = mkdtempSync(join(tmpdir(), 'eddy-build-'));
const outDir = join(directory, 'dist');
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/**
 * Runs a bundle the way Lambda's Node runtime does: a fresh Node process imports index.mjs and
 * awaits `handler(event, context)`. (In process, vitest would transform the 1.3 MB bundle first.)
 */
async function invoke(bundle: string, event: unknown): Promise<{ result?: unknown; error?: string }> {
  const script = [
    `const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});`,
    'try {',
    '  const result = await handler(JSON.parse(process.argv[1]), { functionName: "test", getRemainingTimeInMillis: () => 3000 });',
    '  process.stdout.write(JSON.stringify({ result }));',
    '} catch (error) {',
    '  process.stdout.write(JSON.stringify({ error: String(error?.message ?? error) }));',
    '}',
  ].join('\n');
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--input-type=module', '--eval', script, JSON.stringify(event)],
    { env: { PATH: process.env.PATH ?? '' } },
  );
  return JSON.parse(stdout) as { result?: unknown; error?: string };
}

const build = (...args: string[]) => runCommand(addBuildCommand, ['build', ...args], directory);

/** A stream record about an item (the tally function reads its key only). */
function record(pk: string, sequenceNumber: string): DynamoDBRecord {
  return {
    eventID: sequenceNumber,
    eventName: 'MODIFY',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      Keys: { pk: { S: pk } },
      SequenceNumber: sequenceNumber,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

let buildRun: Awaited<ReturnType<typeof build>>;
beforeAll(async () => {
  buildRun = await build('--config', VOTES_CONFIG, '--out', 'dist');
});

describe('eddy build', () => {
  it("bundles the example's tally and the archiver (archive is configured), and says where", () => {
    expect(buildRun.err).toEqual([]);
    expect(buildRun.code).toBe(0);
    expect(buildRun.out).toEqual([
      expect.stringMatching(/^built tally → dist\/functions\/tally\.zip \(\d+\.\d KiB zipped, index\.mjs/),
      expect.stringMatching(/^built archiver → dist\/functions\/archiver\.zip /),
      expect.stringMatching(/^2 functions built in \d+\.\d s$/),
    ]);
  });

  it('writes index.mjs with its map and metafile, and a zip holding index.mjs and its map', () => {
    const tally = artefactsOf(outDir, 'tally');
    for (const file of [tally.bundle, tally.sourceMap, tally.meta, tally.zip])
      expect(existsSync(file)).toBe(true);
    const entries = unzipSync(readFileSync(tally.zip));
    expect(Object.keys(entries)).toEqual(['index.mjs', 'index.mjs.map']);
    expect(Buffer.from(entries['index.mjs']!).equals(readFileSync(tally.bundle))).toBe(true);
  });

  it('makes self-contained bundles: everything but Node built-ins is inside', () => {
    const metafile = JSON.parse(readFileSync(artefactsOf(outDir, 'tally').meta, 'utf8')) as Metafile;
    const imports = Object.values(metafile.outputs).flatMap((output) => output.imports);
    expect(
      imports.filter((entry) => !entry.path.startsWith('node:') && !/^[a-z_]+$/.test(entry.path)),
    ).toEqual([]);
    const inputs = Object.keys(metafile.inputs).join('\n');
    expect(inputs).toMatch(/^tally\.ts$/m);
    expect(inputs).toContain('@aws-sdk/client-dynamodb');
  });

  it('gives a bundle that runs: tally skips records that are not vote shards (no endpoint needed)', async () => {
    // What Lambda unpacks into /var/task: the zip's entries, nothing else.
    const task = join(directory, 'task');
    mkdirSync(task, { recursive: true });
    for (const [name, bytes] of Object.entries(unzipSync(readFileSync(artefactsOf(outDir, 'tally').zip))))
      writeFileSync(join(task, name), bytes);
    const event: DynamoDBStreamEvent = {
      Records: [record('TOTAL#alice', '100'), record('SESSION#1', '101')],
    };
    expect(await invoke(join(task, 'index.mjs'), event)).toEqual({ result: { batchItemFailures: [] } });
  });

  it('builds the archiver from its Lambda entry, which fails every batch clearly without a bucket', async () => {
    expect(await invoke(artefactsOf(outDir, 'archiver').bundle, { Records: [] })).toEqual({
      error: 'archiver: no bucket: set EDDY_ARCHIVE_BUCKET (eddy synth sets it)',
    });
  });

  it('exports the configured exportName as handler, from a JSON config and a TypeScript module', async () => {
    const project = join(directory, 'custom');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, 'report.ts'),
      'export const run = async (event: { n: number }): Promise<number> => event.n * 2;\n',
    );
    writeFileSync(
      join(project, 'eddy.config.json'),
      JSON.stringify({ functions: { report: { handler: './report.ts', exportName: 'run' } } }),
    );
    const run = await runCommand(addBuildCommand, ['build', '--out', 'out', '--minify'], project);
    expect(run).toMatchObject({ code: 0, err: [] });
    expect(await invoke(artefactsOf(join(project, 'out'), 'report').bundle, { n: 21 })).toEqual({
      result: 42,
    });
    // The same sources from another working directory: the same zip, byte for byte (a redeploy
    // of an unchanged function uploads nothing new).
    const again = await build('--config', 'custom/eddy.config.json', '--out', 'custom/again', '--minify');
    expect(again.code).toBe(0);
    expect(readFileSync(artefactsOf(join(project, 'again'), 'report').zip)).toEqual(
      readFileSync(artefactsOf(join(project, 'out'), 'report').zip),
    );
  });

  it('reports a missing config, a missing handler module and a bad export name, exit code 1', async () => {
    expect(await build()).toMatchObject({
      code: 1,
      err: [expect.stringMatching(/^eddy build: no config: pass --config/)],
    });
    writeFileSync(
      join(directory, 'missing.json'),
      JSON.stringify({ functions: { gone: { handler: './nowhere.ts' } } }),
    );
    expect(await build('--config', 'missing.json')).toMatchObject({
      code: 1,
      err: [expect.stringMatching(/^eddy build: function 'gone': handler module .*nowhere\.ts not found$/)],
    });
    writeFileSync(
      join(directory, 'export.json'),
      JSON.stringify({ functions: { odd: { handler: './missing.json', exportName: 'not-a-name' } } }),
    );
    expect(await build('--config', 'export.json')).toMatchObject({
      code: 1,
      err: [expect.stringMatching(/exportName 'not-a-name' is not a JavaScript export name/)],
    });
  });
});

describe('build entries', () => {
  it("lists eddy's built-ins, the archiver from its Lambda entry", () => {
    const entries = builtInEntries();
    expect(entries.map((entry) => entry.name)).toEqual(['archiver', 'gsi-maintainer', 'ttl-expirer']);
    expect(entries[0]!.module).toMatch(/infra[/\\]archive[/\\]lambdaHandler\.ts$/);
    expect(entries[1]!.module).toMatch(/functions[/\\]gsi-maintainer[/\\]handler\.ts$/);
  });

  it('adds the archiver to the project functions only when archive names tables', () => {
    const functions = { tally: { handler: './tally.ts' } };
    expect(projectEntries({ functions }, '/p').map((entry) => entry.name)).toEqual(['tally']);
    const archived = projectEntries(
      { functions, archive: { tables: ['T'], sink: { type: 's3', bucket: 'b' } } },
      '/p',
    );
    expect(archived.map((entry) => [entry.name, entry.origin])).toEqual([
      ['tally', 'project'],
      ['archiver', 'built-in'],
    ]);
  });

  it('refuses a project function named like a built-in it would overwrite', () => {
    const clash = projectEntries({ functions: { 'ttl-expirer': { handler: './mine.ts' } } }, '/p');
    expect(() => mergeEntries(builtInEntries(), clash)).toThrow(BuildError);
    expect(() => mergeEntries(builtInEntries(), clash)).toThrow(
      /'ttl-expirer': the name is taken by eddy's built-in/,
    );
  });
});

describe('lambdaZip', () => {
  it('gives the same bytes for the same files (fixed timestamps), readable by everyone', () => {
    const files = { 'index.mjs': new TextEncoder().encode('export const handler = async () => 1;\n') };
    const first = lambdaZip(files);
    expect(Buffer.from(lambdaZip(files)).equals(Buffer.from(first))).toBe(true);
    // Central directory entry: "version made by" high byte 3 (Unix), external attributes 0644 << 16.
    const central = Buffer.from(first).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(first[central + 5]).toBe(3);
    expect(Buffer.from(first).readUInt32LE(central + 38) >>> 16).toBe(0o644);
  });
});
