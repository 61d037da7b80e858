import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../functions/archiver/handler.js';
import { fileSink, s3Sink } from '../../infra/archive/archiveSink.js';
import { type CliIo, createProgram } from '../../infra/cli/program.js';
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
  return eddyWith({}, ...args);
}

/** `eddy ...args` with more of the CLI's io (a terminal to draw progress on, say). */
async function eddyWith(extra: Partial<CliIo>, ...args: string[]) {
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
    ...extra,
  });
  await program.parseAsync(args, { from: 'user' });
  return { out, err, code };
}

/** A stream that says it is a terminal: each write drawn on it goes to `events` as `bar: …`. */
function fakeTerminal(events: string[]) {
  const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  terminal.on('data', (chunk: Buffer) => events.push(`bar: ${chunk.toString()}`));
  return terminal as unknown as NodeJS.WriteStream;
}

/** What was drawn, as one text. */
const drawn = (events: readonly string[]) =>
  events
    .filter((event) => event.startsWith('bar: '))
    .map((event) => event.slice('bar: '.length))
    .join('');

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

  it('says there is no archive where the directory does not exist', async () => {
    expect(await eddy('archive', 'ls', '--dir', 'nowhere')).toEqual({
      out: [],
      err: [`eddy archive: no archive directory ${join(directory, 'nowhere')}`],
      code: 1,
    });
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
        '--dir',
        '.',
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

describe('progress', () => {
  it('restore: the bar knows its total from the manifests, and ends before the summary line', async () => {
    const { url, close } = await serveSessionsTable();
    const events: string[] = [];
    try {
      const result = await eddyWith(
        { progress: fakeTerminal(events), print: (line) => events.push(`out: ${line}`) },
        'archive',
        'restore',
        '--table',
        'Sessions',
        '--endpoint',
        url,
        '--dir',
        '.',
      );
      expect(result.code).toBe(0);
    } finally {
      await close();
    }
    const frames = drawn(events);
    // 5 items in the manifests from the start: never a total grown as objects are read.
    expect(new Set([...frames.matchAll(/\d+\/(\d+) items/g)].map((match) => match[1]))).toEqual(
      new Set(['5']),
    );
    expect(frames).toContain('5/5 items');
    expect(events.at(-1)).toBe('out: restored 5 items from 2 objects into Sessions (1 requests, 0 retried)');
    expect(events.filter((event) => event.startsWith('out: '))).toHaveLength(1);
  });

  it('cat draws no bar while its lines go to the terminal', async () => {
    const events: string[] = [];
    await eddyWith(
      { progress: fakeTerminal(events), printsToTerminal: true },
      'archive',
      'cat',
      '--all',
      '--dir',
      '.',
    );
    expect(events).toEqual([]);
    await eddyWith(
      { progress: fakeTerminal(events), printsToTerminal: false },
      'archive',
      'cat',
      '--all',
      '--dir',
      '.',
    );
    expect(drawn(events)).toContain('2/2 objects');
  });

  it('draws nothing when stderr is not a terminal', async () => {
    const { createProgress, createCounter } = await import('../../infra/cli/progress.js');
    const pipe = Object.assign(new PassThrough(), { isTTY: false });
    let piped = '';
    pipe.on('data', (chunk: Buffer) => {
      piped += chunk.toString();
    });
    const bar = createProgress({ label: 'restoring', total: 2, unit: 'items', stream: pipe as never });
    bar.increment(2);
    bar.stop();
    const counter = createCounter({ label: 'recording', unit: 'records', stream: pipe as never });
    counter.increment(3);
    counter.stop();
    expect(piped).toBe('');
  });
});
