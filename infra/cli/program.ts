import { Command, CommanderError } from 'commander';
import { addArchiveCommand } from '../archive/cli.js';
import { addBackupCommand } from './commands/backup.js';
import { addBuildCommand } from './commands/build.js';
import { addDataCommand } from './commands/data.js';
import { addEventCommand } from './commands/event.js';
import { addInvokeCommand } from './commands/invoke.js';
import { addMappingsCommand } from './commands/mappings.js';
import { addRecordCommand } from './commands/record.js';
import { addSynthCommand } from './commands/synth.js';
import { addTablesCommand } from './commands/tables.js';
import { addExportCommand, addImportCommand } from './commands/transfer.js';
import { addServeCommand, baseProgram, type CliIo, CONFIG_HELP } from './serveProgram.js';

export type { CliIo } from './serveProgram.js';

/**
 * The `eddy` command line, every command. `eddy serve` runs the smaller program of serve alone
 * (serveProgram.ts), which parses serve's command lines the same way.
 */
export function createProgram(io: CliIo): Command {
  const program = baseProgram(io);
  const serveCommand = addServeCommand(program, io);

  // `eddy archive ls|cat|restore`: read back what the archiver wrote (infra/archive/cli.ts).
  addArchiveCommand(program, io);
  // `eddy build` / `eddy synth`: Lambda zips and the AWS SAM template of the config.
  addBuildCommand(program, io);
  addSynthCommand(program, io);
  // `eddy data check DIR`: verify a data directory offline (infra/persistence/dataCheck.ts).
  addDataCommand(program, io);
  // `eddy record` / `eddy invoke` / `eddy event dynamodb`: capture stream records, replay them
  // through a function with its mapping's settings, make sample events from a table's items.
  addRecordCommand(program, io);
  addInvokeCommand(program, io);
  addEventCommand(program, io);
  // `eddy mappings [disable|enable NAME]`: the event source mappings of a running eddy.
  addMappingsCommand(program, io);
  // `eddy backup ls|create|restore`, `eddy export`, `eddy import`: backups, exports and imports
  // of a running eddy through the DynamoDB API (docs/backups.md).
  addBackupCommand(program, io);
  addExportCommand(program, io);
  addImportCommand(program, io);
  addTablesCommand(program, io);

  // serve is the default command, so `eddy serv --port 0` would reach it with `serv` as an
  // argument (or fail first on an option serve does not know): it is an unknown command.
  program.hook('preSubcommand', (thisCommand, subcommand) => {
    const first = thisCommand.args[0];
    if (subcommand !== serveCommand || first === undefined || first === 'serve' || first.startsWith('-'))
      return;
    thisCommand.error(unknownCommandMessage(program, first), {
      code: 'commander.unknownCommand',
      exitCode: 1,
    });
  });

  // `eddy --help` documents everything: the serve options and the config file too, under the
  // program's one usage line.
  program.addHelpText('after', () => {
    const serveHelp = serveCommand
      .helpInformation()
      .trimEnd()
      .replace(/^Usage: .*\n/, '')
      .replace(/^\n?Run the DynamoDB-compatible HTTP endpoint \(the default command\)\.\n/, '');
    return `\neddy serve (the default command): run the DynamoDB-compatible HTTP endpoint.\n${serveHelp}\n${CONFIG_HELP}`;
  });
  return program;
}

/**
 * `error: unknown command 'serv'` with commander's own suggestion (`(Did you mean serve?)`), as
 * it words an unknown option: a program of the same command names, parsed with the name alone.
 */
function unknownCommandMessage(program: Command, name: string): string {
  const probe = new Command(program.name())
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut: () => {}, writeErr: () => {} });
  for (const command of program.commands) probe.command(command.name());
  try {
    probe.parse([name], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return `${error.message}\n(see eddy --help)`;
    throw error;
  }
  return `error: unknown command '${name}'`;
}
