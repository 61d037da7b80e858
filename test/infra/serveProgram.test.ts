import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../infra/cli/program.js';
import { createServeProgram, servesOnly } from '../../infra/cli/serveProgram.js';
import { runProgram } from '../helpers/command.js';

// `eddy serve` parses its command line with the serve-only program (main.ts), which must answer
// exactly as the whole program does for every command line it takes.
describe('the serve-only program (eddy serve does not load the other commands)', () => {
  it('takes serve command lines, and leaves every other one to the whole program', () => {
    for (const args of [[], ['serve'], ['serve', '--help'], ['--port', '0'], ['-p', '0', '--verbose']])
      expect(servesOnly(args), args.join(' ')).toBe(true);
    for (const args of [
      ['--help'],
      ['-h'],
      ['-v'],
      ['--version'],
      ['help'],
      ['serv'],
      ['record'],
      ['data', 'check'],
    ])
      expect(servesOnly(args), args.join(' ')).toBe(false);
  });

  it("answers serve's command lines as the whole program does: help, bad values, missing pairs", async () => {
    const commandLines = [
      ['serve', '--help'],
      ['--port', 'eighty'],
      ['serve', '--port', '70000'],
      ['serve', '--durability', 'always'],
      ['serve', '--access-key-id', 'AKID'],
      ['serve', '--capacity', 'sometimes'],
      ['--unknown-flag'],
      ['serve', '--max-body-size', 'lots'],
    ];
    for (const args of commandLines) {
      expect(servesOnly(args)).toBe(true);
      const whole = await runProgram(createProgram, args, tmpdir());
      const serveOnly = await runProgram(createServeProgram, args, tmpdir());
      expect(serveOnly, args.join(' ')).toEqual(whole);
      // Each prints something (help, or the error): the comparison is not of two empty runs.
      expect([...whole.out, ...whole.err].join('\n'), args.join(' ')).not.toBe('');
    }
  });
});
