import { Command, CommanderError } from 'commander';
import type { CliIo } from '../../infra/cli/program.js';

/** What a command printed and the exit code it asked for (0 when it asked for none). */
export interface CommandRun {
  readonly out: string[];
  readonly err: string[];
  readonly code: number;
}

/**
 * Runs a subcommand in process: registered by its `add*Command` on a fresh program, with a fake
 * CliIo collecting the lines. Commander's own failures (unknown option, bad value) come back as
 * their exit code, as `main.ts` turns them into one.
 */
export function runCommand(
  addCommand: (program: Command, io: CliIo) => unknown,
  args: readonly string[],
  cwd: string,
): Promise<CommandRun> {
  return runProgram(
    (io) => {
      const program = new Command('eddy').exitOverride().configureOutput({
        writeOut: (text) => io.print(text.trimEnd()),
        writeErr: (text) => io.printError(text.trimEnd()),
      });
      addCommand(program, io);
      return program;
    },
    args,
    cwd,
  );
}

/** Runs `args` on the program `build` makes, with a fake CliIo collecting what it prints. */
export async function runProgram(
  build: (io: CliIo) => Command,
  args: readonly string[],
  cwd: string,
): Promise<CommandRun> {
  const out: string[] = [];
  const err: string[] = [];
  let code = 0;
  const io: CliIo = {
    print: (line) => out.push(line),
    printError: (line) => err.push(line),
    cwd,
    exit: (exitCode) => {
      code = exitCode;
    },
  };
  const program = build(io);
  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = error.exitCode;
  }
  return { out, err, code };
}
