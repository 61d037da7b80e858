import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeMark } from '../../infra/persistence/durableMark.js';
import { CorruptDataError, DataLossError, IncompleteDataError } from '../../infra/persistence/errors.js';
import {
  flip,
  itemCountOf,
  markOnly,
  openHost,
  recordingLogger,
  recordOffsets,
  s,
  segmentsOf,
  tempDir,
  writeLog,
} from './helpers.js';

/**
 * Issue #16, item 1: a damaged end of the log is never silent. The log's mark (`log.mark`) says
 * how far the log reached; a log that ends before it lost records that had been written, and eddy
 * refuses to start (naming the damage) unless told `acceptDataLoss`; a torn last write beyond it
 * is dropped and said at the default level (warn). See docs/persistence.md.
 */
let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

/** 60 puts after CreateTable's 2 table records: LSN 62 is the last. */
const PUTS = 60;
const LAST = PUTS + 2;
const segment = () => segmentsOf(dir.path)[0]!;
const damaged = () => join(dir.path, 'damaged');

describe('records the log had written, then lost', () => {
  it('refuses to start when the last segment is cut to half its size, and changes nothing', async () => {
    await writeLog(dir.path, PUTS);
    const file = segment();
    const half = Math.floor(statSync(file).size / 2);
    truncateSync(file, half);
    const cut = recordOffsets(file).filter((offset) => offset < half);
    const kept = cut.length - 1; // the record cut in two is not kept

    const attempt = openHost(dir.path);
    await expect(attempt).rejects.toThrow(DataLossError);
    await expect(attempt).rejects.toThrow(
      `${file}: the log ends at LSN ${kept} (byte ${cut.at(-1)}: a frame of `,
    );
    await expect(attempt).rejects.toThrow(
      `but records up to LSN ${LAST} had been fsynced (log.mark): ${LAST - kept} records are lost`,
    );
    await expect(attempt).rejects.toThrow('with --accept-data-loss');
    expect(statSync(file).size).toBe(half);
    expect(existsSync(damaged())).toBe(false);
  });

  it('refuses a log cut exactly at a frame boundary', async () => {
    await writeLog(dir.path, PUTS);
    const file = segment();
    const boundary = recordOffsets(file)[40]!;
    truncateSync(file, boundary);
    await expect(openHost(dir.path)).rejects.toThrow(
      `${file}: the log ends at LSN 40 (byte ${boundary}: the end of the file), but records up to LSN ${LAST}`,
    );
  });

  it('refuses a flipped byte in the last complete frame', async () => {
    await writeLog(dir.path, PUTS);
    const file = segment();
    const last = recordOffsets(file).at(-1)!;
    flip(file, last + 30);
    await expect(openHost(dir.path)).rejects.toThrow(
      `${file}: the log ends at LSN ${LAST - 1} (byte ${last}: a checksum mismatch), but records up to LSN ${LAST} had been fsynced (log.mark): 1 record is lost`,
    );
  });

  it('refuses when the segment after the snapshot is gone', async () => {
    await writeLog(dir.path, 5);
    const host = await openHost(dir.path, { snapshotOnClose: false });
    await host.persistence.snapshot();
    host.engine.execute('PutItem', { TableName: 'Things', Item: { pk: s('late') } });
    await host.persistence.close();
    const [tail] = segmentsOf(dir.path).slice(-1);
    unlinkSync(tail!);
    await expect(openHost(dir.path)).rejects.toThrow(
      /the log ends at LSN 7 \(byte 0: no segment holds them\), but records up to LSN 8/,
    );
  });

  it('refuses a tail of zeros over a frame the mark says was fsynced', async () => {
    await writeLog(dir.path, PUTS);
    const file = segment();
    const last = recordOffsets(file).at(-1)!;
    const bytes = readFileSync(file);
    bytes.fill(0, last + 20);
    writeFileSync(file, Buffer.concat([bytes, Buffer.alloc(4096)]));
    const attempt = openHost(dir.path);
    await expect(attempt).rejects.toThrow(DataLossError);
    await expect(attempt).rejects.toThrow(
      `${file}: the log ends at LSN ${LAST - 1} (byte ${last}: a checksum mismatch), but records up to LSN ${LAST} had been fsynced`,
    );
  });
});

describe('acceptDataLoss (--accept-data-loss)', () => {
  it('starts with what is left, keeps the dropped bytes, says so at warn, and starts cleanly after', async () => {
    await writeLog(dir.path, PUTS);
    const file = segment();
    const original = readFileSync(file);
    const boundary = recordOffsets(file)[40]!;
    truncateSync(file, boundary + 10); // 10 bytes of record 41 left
    const logger = recordingLogger();

    const host = await openHost(dir.path, { snapshotOnClose: false, acceptDataLoss: true, logger });
    expect((host.engine.execute('Scan', { TableName: 'Things' }).Items as unknown[]).length).toBe(38);
    const dropped = host.persistence.recovery.dropped!;
    expect(dropped).toMatchObject({
      kind: 'lost',
      segment: file,
      offset: boundary,
      bytes: 10,
      records: LAST - 40,
      lastLsn: 40,
    });
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings).toEqual([
      {
        level: 'warn',
        fields: expect.objectContaining({
          segment: file,
          offset: boundary,
          bytes: 10,
          records: 22,
          lastLsn: 40,
        }),
        message: expect.stringContaining('--accept-data-loss'),
      },
    ]);
    // Nothing destroyed: the bytes cut from the log are in damaged/<time>/.
    const [folder] = readdirSync(damaged());
    const kept = readFileSync(join(damaged(), folder!, `${basename(file)}.from-${boundary}`));
    expect(kept).toEqual(original.subarray(boundary, boundary + 10));
    expect(statSync(file).size).toBe(boundary);
    host.engine.execute('PutItem', { TableName: 'Things', Item: { pk: s('after') } });
    await host.persistence.close();

    // The mark was started afresh: the next start is clean, with the write made after.
    expect(await itemCountOf(dir.path)).toBe(39);
  });

  it('keeps the records before damage in the middle of the log', async () => {
    await writeLog(dir.path, PUTS);
    const file = segment();
    const offset = recordOffsets(file)[20]!;
    flip(file, offset + 30);
    await expect(openHost(dir.path)).rejects.toThrow(CorruptDataError);
    await expect(openHost(dir.path)).rejects.toThrow(
      `${file} is damaged at byte ${offset} (a checksum mismatch). eddy will not start from a partial state: restore the data directory from a backup, move it away to start empty, or start with what is left (the log up to LSN 20;`,
    );
    const host = await openHost(dir.path, { acceptDataLoss: true, snapshotOnClose: false });
    expect(host.persistence.recovery.dropped).toMatchObject({
      kind: 'lost',
      lastLsn: 20,
      records: LAST - 20,
    });
    expect((host.engine.execute('Scan', { TableName: 'Things' }).Items as unknown[]).length).toBe(18);
    await host.persistence.close();
  });

  it('keeps the segments before a missing one', async () => {
    const host = await openHost(dir.path, { snapshotOnClose: false, segmentBytes: 200 });
    host.engine.execute('CreateTable', {
      TableName: 'Things',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    for (let i = 0; i < 6; i++) {
      host.engine.execute('PutItem', {
        TableName: 'Things',
        Item: { pk: s(`k${i}`), body: s('x'.repeat(300)) },
      });
      await host.persistence.flush();
    }
    await host.persistence.close();
    const files = segmentsOf(dir.path);
    unlinkSync(files[3]!);
    await expect(openHost(dir.path)).rejects.toThrow(IncompleteDataError);
    const again = await openHost(dir.path, { acceptDataLoss: true, snapshotOnClose: false });
    const kept = (again.engine.execute('Scan', { TableName: 'Things' }).Items as unknown[]).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(6);
    expect(segmentsOf(dir.path)).toEqual(files.slice(0, 3));
    await again.persistence.close();
  });
});

describe('after the machine stopped', () => {
  it('says how many written records were never fsynced, and starts with the rest', async () => {
    await writeLog(dir.path, PUTS);
    const file = segment();
    truncateSync(file, recordOffsets(file)[50]!); // the log reached the disk up to LSN 50
    // The mark of the run before: records up to 62 written to the OS, up to 45 fsynced.
    const bootId = '00000000-0000-4000-8000-00000000dead';
    writeMark(join(dir.path, 'log.mark'), { writtenLsn: LAST, durableLsn: 45, bootId });
    const logger = recordingLogger();
    const host = await openHost(dir.path, { snapshotOnClose: false, logger });
    expect((host.engine.execute('Scan', { TableName: 'Things' }).Items as unknown[]).length).toBe(48);
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([
      {
        level: 'warn',
        fields: { writtenLsn: LAST, records: LAST - 50, lastLsn: 50 },
        message: expect.stringContaining('the machine stopped before written records were fsynced'),
      },
    ]);
    await host.persistence.close();
  });

  it('refuses when even the fsynced records are not all there', async () => {
    await writeLog(dir.path, PUTS);
    const file = segment();
    truncateSync(file, recordOffsets(file)[40]!);
    const bootId = '00000000-0000-4000-8000-00000000dead';
    writeMark(join(dir.path, 'log.mark'), { writtenLsn: LAST, durableLsn: 45, bootId });
    await expect(openHost(dir.path)).rejects.toThrow('the log ends at LSN 40 (byte ');
    await expect(openHost(dir.path)).rejects.toThrow(
      'but records up to LSN 45 had been fsynced (log.mark): 5 records are lost',
    );
  });
});

describe('a torn last write (beyond what the mark claims)', () => {
  it('is dropped and said at the default level: segment, offset, bytes, records, last LSN', async () => {
    await writeLog(dir.path, PUTS);
    markOnly(dir.path, LAST - 1); // the crash came while the last record was being written
    const file = segment();
    const last = recordOffsets(file).at(-1)!;
    const size = statSync(file).size - 7;
    truncateSync(file, size);
    const logger = recordingLogger();
    const host = await openHost(dir.path, { snapshotOnClose: false, logger });
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([
      {
        level: 'warn',
        fields: {
          segment: file,
          offset: last,
          bytes: size - last,
          records: 1,
          lastLsn: LAST - 1,
          reason: expect.stringContaining('running past the end'),
        },
        message: 'dropped a torn write at the end of the log (a crash cut it short)',
      },
    ]);
    await host.persistence.close();
  });

  it('takes a tail of zeros from inside the last frame to past its end for a torn write (power loss on an extended file)', async () => {
    await writeLog(dir.path, PUTS);
    markOnly(dir.path, LAST - 1);
    const file = segment();
    const last = recordOffsets(file).at(-1)!;
    const bytes = readFileSync(file);
    bytes.fill(0, last + 20);
    writeFileSync(file, Buffer.concat([bytes, Buffer.alloc(4096)]));
    const size = statSync(file).size;
    const logger = recordingLogger();
    const host = await openHost(dir.path, { snapshotOnClose: false, logger });
    expect((host.engine.execute('Scan', { TableName: 'Things' }).Items as unknown[]).length).toBe(PUTS - 1);
    expect(host.persistence.recovery.dropped).toMatchObject({
      kind: 'torn',
      offset: last,
      bytes: size - last,
      records: 1,
      lastLsn: LAST - 1,
    });
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    await host.persistence.close();
  });

  it('counts no record for zeros from a frame boundary on', async () => {
    await writeLog(dir.path, PUTS);
    const file = segment();
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.alloc(8192)]));
    const host = await openHost(dir.path, { snapshotOnClose: false });
    expect(host.persistence.recovery.dropped).toMatchObject({ kind: 'torn', bytes: 8192, records: 0 });
    await host.persistence.close();
  });
});
