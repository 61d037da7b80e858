import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../infra/cli/program.js';
import { runProgram } from '../helpers/command.js';

const { version } = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
) as {
  version: string;
};
const eddy = (...args: string[]) => runProgram(createProgram, args, tmpdir());

describe('eddy --version', () => {
  it("prints the package's version for --version and -v, and exits 0", async () => {
    for (const flag of ['--version', '-v']) {
      const run = await eddy(flag);
      expect(run).toEqual({ out: [version], err: [], code: 0 });
    }
  });

  it('leaves -v after a command to that command (serve -v is --verbose)', async () => {
    const run = await eddy('serve', '-v', '--help');
    expect(run.code).toBe(0);
    expect(run.out.join('\n')).toContain('Usage: eddy serve');
    expect(run.out).not.toContain(version);
  });
});
