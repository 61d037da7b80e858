import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { ChangeEventName } from '../../../core/changeEvent.js';
import type { StreamViewType } from '../../../core/store/table.js';
import type { CliIo } from '../program.js';
import {
  checkCredentialFlags,
  EndpointError,
  optionalConfig,
  parseCount,
  type ServiceCliOptions,
  UsageError,
  withServiceOptions,
} from './serviceOptions.js';

interface DynamodbEventOptions extends ServiceCliOptions {
  readonly table: string;
  readonly eventName: ChangeEventName;
  readonly limit: number;
  readonly viewType?: StreamViewType;
  readonly out: string;
}

const EVENT_HELP = `
Like \`sam local generate-event dynamodb update\`, but the records carry your table's real items
(a Scan): Keys from the table's key schema, images by event name and stream view type, SizeBytes
by DynamoDB's item-size rules, eventIDs, sequence numbers and the ARN of the table's stream.
INSERT: the item as NewImage. REMOVE: the item as OldImage. MODIFY: the item as NewImage and,
as OldImage, the item holding only its key (edit the file to model another change).

Examples:
  eddy event dynamodb --table Orders > event.json
  eddy event dynamodb --table Orders --event-name REMOVE --limit 3 --out remove.json
  eddy event dynamodb --table Orders | eddy invoke onOrder --events -
  sam local invoke OnOrder -e event.json`;

/** Adds `eddy event dynamodb`: a Lambda DynamoDB stream event made from a table's items. */
export function addEventCommand(program: Command, io: CliIo): Command {
  const event = program
    .command('event')
    .description('Generate sample Lambda events from real data (`eddy event dynamodb`).');
  withServiceOptions(
    event
      .command('dynamodb')
      .description('Print a DynamoDB stream event ({"Records": [...]}) built from a table\'s items.')
      .requiredOption('-t, --table <name>', 'the table to scan')
      .addOption(
        new Option('--event-name <name>', 'what every record describes')
          .choices(['INSERT', 'MODIFY', 'REMOVE'])
          .default('INSERT'),
      )
      .option('-n, --limit <count>', 'most items (records) to take', parseCount, 10)
      .addOption(
        new Option(
          '--view-type <type>',
          "StreamViewType (default: the table's stream's, else NEW_AND_OLD_IMAGES)",
        ).choices(['KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES']),
      )
      .option('-o, --out <file>', 'write the event to a file instead of stdout', '-'),
  )
    .addHelpText('after', EVENT_HELP)
    .action(async (options: DynamodbEventOptions) => {
      try {
        await dynamodbEvent(options, io);
      } catch (error) {
        io.printError(`eddy event dynamodb: ${error instanceof Error ? error.message : String(error)}`);
        io.exit(error instanceof UsageError ? 2 : 1);
      }
    });
  return event;
}

async function dynamodbEvent(options: DynamodbEventOptions, io: CliIo): Promise<void> {
  checkCredentialFlags(options);
  const { config } = await optionalConfig(options, io.cwd);
  const { clientConfig, serviceTarget } = await import('../../replay/serviceTarget.js');
  const target = serviceTarget(options, config);
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { sampleEvent } = await import('../../replay/sampleEvents.js');
  const client = new DynamoDBClient(clientConfig(target));
  try {
    const sample = await sampleEvent({
      client,
      tableName: options.table,
      eventName: options.eventName,
      limit: options.limit,
      ...(options.viewType === undefined ? {} : { viewType: options.viewType }),
    }).catch((error: unknown) => {
      throw new EndpointError(error, target.endpoint);
    });
    const text = JSON.stringify(sample.event, null, 2);
    if (options.out === '-') io.print(text);
    else writeFileSync(resolve(io.cwd, options.out), `${text}\n`);
    for (const note of sample.notes) io.printError(`eddy event dynamodb: note: ${note}`);
    const count = sample.event.Records.length;
    if (options.out !== '-' || count === 0)
      io.printError(
        `${count} ${options.eventName} ${count === 1 ? 'record' : 'records'} from ${options.table}`,
      );
  } finally {
    client.destroy();
  }
}
