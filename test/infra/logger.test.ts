import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHostLogger } from '../../infra/host/logger.js';

const directory = mkdtempSync(join(tmpdir(), 'eddy-logger-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The JSON lines a logger at `level` writes for one line at each of debug, info and error. */
function linesAt(level: 'warn' | 'debug' | 'silent'): Record<string, unknown>[] {
  const file = join(directory, `${level}.log`);
  const fd = openSync(file, 'w');
  const logger = createHostLogger({ level, fd });
  logger.debug({ step: 1 }, 'debugging');
  logger.info({ step: 2 }, 'informing');
  logger.error({ step: 3 }, 'failing');
  closeSync(fd);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('createHostLogger', () => {
  it('writes pino JSON lines at and above its level only', () => {
    expect(linesAt('warn')).toEqual([
      expect.objectContaining({ level: 50, name: 'eddy', step: 3, msg: 'failing' }),
    ]);
    expect(linesAt('debug').map((line) => line.msg)).toEqual(['debugging', 'informing', 'failing']);
    expect(linesAt('silent')).toEqual([]);
  });
});
