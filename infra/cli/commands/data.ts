import type { Command } from 'commander';
import type { CliIo } from '../program.js';

const DATA_HELP = `
Examples:
  eddy data check ./.eddy     # exit 0: a start would lose nothing written; 1: it would refuse

What a start does with the end of the log, and --accept-data-loss: see the README, "Keeping data".`;

/**
 * `eddy data check DIR`: verifies a data directory offline (its snapshots, log segments and
 * frames, the log's mark) and says what a start would recover; exit code 0 when a start would
 * succeed without losing a written record, 1 otherwise. The check loads when the command runs.
 */
export function addDataCommand(program: Command, io: CliIo): Command {
  const data = program.command('data').description('Inspect a data directory (--data-dir).');
  data
    .command('check')
    .description('Verify a data directory offline and say what a start would recover (exit 0 or 1).')
    .argument('<dir>', 'the data directory')
    .addHelpText('after', DATA_HELP)
    .action(async (dir: string) => {
      const { resolve } = await import('node:path');
      const { checkDataDirectory } = await import('../../persistence/dataCheck.js');
      const result = checkDataDirectory(resolve(io.cwd, dir));
      for (const line of result.lines) io.print(line);
      io.print(result.ok ? 'ok' : 'not ok');
      io.exit(result.ok ? 0 : 1);
    });
  return data;
}
