import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../functions/archiver/handler.js';
import { fileSink, s3Sink } from '../../infra/archive/archiveSink.js';
import { createProgram } from '../../infra/cli/program.js';
import { lambdaContext } from '../helpers/events.js';
import {
  AT,
  type LoopbackS3,
  removeTempDirs,
  STREAM_SHARD,
  seq,
  serveSessionsTable,
  sessionItem,
  startLoopbackS3,
  tempDir,
  ttlBatch,
} from './helpers.js';

// `eddy archive ...` through the real command line program, in process (no tsx start per case).

let directory: string;
beforeAll(async () => {
  directory = tempDir('cli');
  const invoke = createHandler({ sink: fileSink({ directory }) });
  await invoke(ttlBatch(1, 3), lambdaContext('archiver') as never);
  await invoke(ttlBatch(4, 2, AT + 86_400), lambdaContext('archiver') as never);
});
afterAll(removeTempDirs);

async function eddy(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  let code = 0;
  const program = createProgram({
    print: (line) => out.push(line),
    printError: (line) => err.push(line),
    cwd: directory,
    exit: (exitCode) => {
      code = exitCode;
    },
  });
  await program.parseAsync(args, { from: 'user' });
  return { out, err, code };
}

const DAY1 = `Sessions/year=2026/month=01/day=02/${STREAM_SHARD}-${seq(1)}-${seq(3)}.json.gz`;
const DAY2 = `Sessions/year=2026/month=01/day=03/${STREAM_SHARD}-${seq(4)}-${seq(5)}.json.gz`;

describe('eddy archive ls', () => {
  it('lists the objects in stream order with sizes, and item counts with --count', async () => {
    const { out, code } = await eddy('archive', 'ls', '--dir', '.', '--count');
    expect(code).toBe(0);
    expect(out[0]).toMatch(new RegExp(`^${DAY1.replace(/[.]/g, '\\.')}\\t\\d+ B\\t2026-.+Z\\t3 items$`));
    expect(out[1]!.startsWith(`${DAY2}\t`)).toBe(true);
    expect(out[2]).toMatch(/^2 objects, \d+ bytes, 5 items in file:\/\//);
  });

  it('filters by table', async () => {
    const { out } = await eddy('archive', 'ls', '--dir', '.', '--table', 'Other');
    expect(out).toEqual([expect.stringMatching(/^0 objects, 0 bytes in /)]);
  });
});

describe('eddy archive cat', () => {
  it('prints every archived item as an export line with --all', async () => {
    const { out } = await eddy('archive', 'cat', '--all', '--dir', '.');
    expect(out.map((line) => JSON.parse(line))).toEqual(
      [1, 2, 3, 4, 5].map((i) => ({ Item: sessionItem(i) })),
    );
  });

  it('prints one object, bare items with --bare', async () => {
    const { out } = await eddy('archive', 'cat', DAY2, '--bare', '--dir', '.');
    expect(out.map((line) => JSON.parse(line))).toEqual([sessionItem(4), sessionItem(5)]);
  });

  it('asks for objects or --all, and reports a missing object', async () => {
    expect(await eddy('archive', 'cat', '--dir', '.')).toMatchObject({
      code: 2,
      err: ['eddy archive: name objects to print, or pass --all'],
    });
    const missing = await eddy('archive', 'cat', 'Sessions/nope.json.gz', '--dir', '.');
    expect(missing.code).toBe(1);
    expect(missing.err[0]).toMatch(/^eddy archive: no object Sessions\/nope\.json\.gz in file:\/\//);
  });
});

describe('eddy archive restore', () => {
  it('writes the archived items back into a table of a running eddy, without the dropped attribute', async () => {
    const { engine, url, close } = await serveSessionsTable();
    try {
      const { out, code, err } = await eddy(
        'archive',
        'restore',
        '--table',
        'Sessions',
        '--endpoint',
        url,
        '--dir',
        '.',
        '--drop-attribute',
        'expiresAt',
      );
      expect(err).toEqual([]);
      expect(code).toBe(0);
      expect(out).toEqual(['restored 5 items from 2 objects into Sessions (1 requests, 0 retried)']);
      const items = engine.execute('Scan', { TableName: 'Sessions' }).Items as Record<string, unknown>[];
      const { expiresAt: _, ...first } = sessionItem(1);
      expect(items).toHaveLength(5);
      expect(items).toContainEqual(first);
    } finally {
      await close();
    }
  });

  it('writes into the running eddy the config names when no --endpoint is given, never AWS unless --aws', async () => {
    const { engine, url, close } = await serveSessionsTable();
    const config = join(tempDir('restore-config'), 'eddy.config.json');
    writeFileSync(config, JSON.stringify({ server: { port: Number(new URL(url).port) } }));
    try {
      const { out, code, err } = await eddy(
        'archive',
        'restore',
        '--table',
        'Sessions',
        '--dir',
        '.',
        '--config',
        config,
      );
      expect({ code, err }).toEqual({ code: 0, err: [] });
      expect(out).toEqual(['restored 5 items from 2 objects into Sessions (1 requests, 0 retried)']);
      expect(engine.execute('Scan', { TableName: 'Sessions' }).Items).toHaveLength(5);
      expect(await eddy('archive', 'restore', '-t', 'Sessions', '--aws', '--endpoint', url)).toMatchObject({
        code: 2,
        err: ['eddy archive: --aws and --endpoint exclude each other'],
      });
    } finally {
      await close();
    }
  });

  it('says when no eddy answers at the default endpoint', async () => {
    const config = join(tempDir('restore-config'), 'eddy.config.json');
    // A port nothing listens on (the server is closed again at once).
    const { url, close } = await serveSessionsTable();
    await close();
    writeFileSync(config, JSON.stringify({ server: { port: Number(new URL(url).port) } }));
    const result = await eddy('archive', 'restore', '-t', 'Sessions', '--dir', '.', '--config', config);
    expect(result.code).toBe(1);
    expect(result.err[0]).toMatch(
      new RegExp(
        `^eddy archive: nothing answers at ${url.replace(/[.]/g, '\\.')} \\(start it with \`eddy serve\`, or pass --endpoint\\)`,
      ),
    );
  });

  it('refuses to drop a key attribute', async () => {
    const { url, close } = await serveSessionsTable();
    try {
      const result = await eddy(
        'archive',
        'restore',
        '-t',
        'Sessions',
        '--endpoint',
        url,
        '--drop-attribute',
        'pk',
      );
      expect(result).toMatchObject({
        code: 1,
        err: ['eddy archive: cannot drop key attribute pk of Sessions'],
      });
    } finally {
      await close();
    }
  });
});

describe('eddy archive on S3', () => {
  let s3: LoopbackS3;
  beforeAll(async () => {
    s3 = await startLoopbackS3('cli-archive');
    const sink = s3Sink({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      storageClass: 'GLACIER',
    });
    await createHandler({ sink })(ttlBatch(1, 2), lambdaContext('archiver') as never);
  });
  afterAll(() => s3.stop());

  it('lists and prints a bucket', async () => {
    const s3Args = [
      '--s3-bucket',
      s3.bucket,
      '--s3-endpoint',
      s3.endpoint,
      '--s3-access-key-id',
      'S3RVER',
      '--s3-secret-access-key',
      'S3RVER',
    ];
    const listed = await eddy('archive', 'ls', ...s3Args);
    expect(listed.out).toEqual([
      expect.stringMatching(/^Sessions\/year=2026\/month=01\/day=02\/.+\.json\.gz\t\d+ B\t/),
      expect.stringMatching(/^1 objects, \d+ bytes in s3:\/\/cli-archive$/),
    ]);
    const printed = await eddy('archive', 'cat', '--all', ...s3Args);
    expect(printed.out.map((line) => JSON.parse(line).Item)).toEqual([sessionItem(1), sessionItem(2)]);
  });
});

describe('progress bar', () => {
  it('draws on a terminal and stays quiet elsewhere', async () => {
    const { PassThrough } = await import('node:stream');
    const { createProgress } = await import('../../infra/archive/progress.js');
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    let drawn = '';
    terminal.on('data', (chunk: Buffer) => {
      drawn += chunk.toString();
    });
    const bar = createProgress({ label: 'restoring', total: 2, unit: 'items', stream: terminal as never });
    bar.grow(1);
    bar.increment(3);
    bar.stop();
    expect(drawn).toContain('restoring');
    expect(drawn).toContain('3/3 items');

    const pipe = Object.assign(new PassThrough(), { isTTY: false });
    let piped = '';
    pipe.on('data', (chunk: Buffer) => {
      piped += chunk.toString();
    });
    const quiet = createProgress({ label: 'restoring', total: 2, unit: 'items', stream: pipe as never });
    quiet.increment(2);
    quiet.stop();
    expect(piped).toBe('');
  });
});
