import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { Image } from '../../functions/shared/ports.js';
import type { ObjectStore } from './objectStore.js';
import type { ArchiveEntry } from './reader.js';

/**
 * `eddy archive ls | cat | restore`: reading back what the archiver wrote, from a directory or
 * an S3 bucket. Progress bars go to stderr and only on a terminal.
 *
 * The archive modules (S3 client, Parquet, zlib) load when an archive command runs, not when the
 * program is built: `eddy serve` starts ~0.5 s sooner without them.
 */
const load = async () => ({
  ...(await import('./fileStore.js')),
  ...(await import('./s3Store.js')),
  ...(await import('./reader.js')),
  ...(await import('./manifests.js')),
  ...(await import('../cli/progress.js')),
});
export interface ArchiveCliIo {
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
  readonly cwd: string;
  readonly exit: (code: number) => void;
  /** Where progress is drawn (default: stderr; nothing is drawn unless it is a terminal). */
  readonly progress?: NodeJS.WriteStream;
  /** Whether what `print` writes shows on a terminal (default: whether stdout is one). */
  readonly printsToTerminal?: boolean;
}

/**
 * Whether a command that prints a line per object (`ls --count`, `cat`) may draw a bar: only when
 * its lines go elsewhere (a file, a pipe), or they would break into the bar on the terminal.
 */
function barBesidePrinting(io: ArchiveCliIo): boolean {
  return !(io.printsToTerminal ?? process.stdout.isTTY === true);
}

export const DEFAULT_ARCHIVE_DIR = '.eddy/archive';

interface SourceOptions {
  dir?: string;
  s3Bucket?: string;
  s3Endpoint?: string;
  s3Region?: string;
  s3AccessKeyId?: string;
  s3SecretAccessKey?: string;
  prefix?: string;
  table?: string;
  progress: boolean;
}

const ARCHIVE_HELP = `
Where the archive is: --dir (default ${DEFAULT_ARCHIVE_DIR}) or --s3-bucket with, for an
S3-compatible server, --s3-endpoint (path-style URLs). S3 credentials come from
--s3-access-key-id/--s3-secret-access-key or the AWS SDK's usual chain (environment, profile).
Objects in GLACIER or DEEP_ARCHIVE on AWS must be restored (S3 RestoreObject) before they can be read.

Examples:
  eddy archive ls --table Sessions
  eddy archive cat --all --table Sessions > sessions.jsonl
  eddy archive cat Sessions/year=2026/month=01/day=02/stream-2026-01-01T00_00_00.000-100000000000000000001-100000000000000000042.json.gz
  eddy archive restore --table Sessions --drop-attribute expiresAt    # into the eddy on :8000
  eddy archive restore --table Sessions --aws --region eu-west-1     # into the table on AWS
  eddy archive ls --s3-bucket archive --s3-endpoint http://127.0.0.1:4568`;

function withSource(command: Command): Command {
  return command
    .option('-d, --dir <path>', `archive directory (default ${DEFAULT_ARCHIVE_DIR})`)
    .option('--s3-bucket <name>', 'read an S3 bucket instead of a directory')
    .option('--s3-endpoint <url>', 'S3-compatible endpoint (path-style), e.g. http://127.0.0.1:4568')
    .option('--s3-region <name>', 'S3 region (default AWS_REGION or us-east-1)')
    .option('--s3-access-key-id <id>', 'S3 access key (with --s3-secret-access-key)')
    .option('--s3-secret-access-key <secret>', 'S3 secret key')
    .option('--prefix <prefix>', 'key prefix the archive was written under (default none)')
    .option('--no-progress', 'no progress bar (there is none when stderr is not a terminal)');
}

async function storeOf(options: SourceOptions, io: ArchiveCliIo): Promise<ObjectStore> {
  const { FileStore, S3Store } = await load();
  if (options.s3Bucket !== undefined) {
    if (options.dir !== undefined) throw new UsageError('--dir and --s3-bucket exclude each other');
    if ((options.s3AccessKeyId === undefined) !== (options.s3SecretAccessKey === undefined))
      throw new UsageError('--s3-access-key-id and --s3-secret-access-key go together');
    return new S3Store({
      bucket: options.s3Bucket,
      ...(options.s3Endpoint ? { endpoint: options.s3Endpoint } : {}),
      ...(options.s3Region ? { region: options.s3Region } : {}),
      ...(options.s3AccessKeyId
        ? { credentials: { accessKeyId: options.s3AccessKeyId, secretAccessKey: options.s3SecretAccessKey! } }
        : {}),
    });
  }
  const directory = resolve(io.cwd, options.dir ?? DEFAULT_ARCHIVE_DIR);
  // A mistyped --dir is not an empty archive.
  if (!existsSync(directory)) throw new Error(`no archive directory ${directory}`);
  return new FileStore(directory);
}

class UsageError extends Error {}

/** Runs an action, turning known failures into `eddy archive: <message>` and exit code 1. */
function guarded<A extends unknown[]>(io: ArchiveCliIo, action: (...args: A) => Promise<void>) {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      io.printError(`eddy archive: ${error instanceof Error ? error.message : String(error)}`);
      io.exit(error instanceof UsageError ? 2 : 1);
    }
  };
}

async function selected(store: ObjectStore, options: SourceOptions, keys: string[], all: boolean) {
  const { listArchive } = await load();
  const listing = await listArchive(store, {
    ...(options.prefix ? { prefix: options.prefix } : {}),
    ...(options.table ? { table: options.table } : {}),
  });
  if (all || keys.length === 0) return { listing, objects: listing.objects };
  const byKey = new Map(listing.objects.map((object) => [object.key, object]));
  return { listing, objects: keys.map((key) => byKey.get(key) ?? ({ key } as ArchiveEntry)) };
}

/** Adds `archive` and its subcommands to the program. */
export function addArchiveCommand(program: Command, io: ArchiveCliIo): Command {
  const archive = program
    .command('archive')
    .description('Read back what the archiver wrote: list objects, print items, restore them into a table.')
    .addHelpText('after', ARCHIVE_HELP);

  withSource(archive.command('ls'))
    .description('List archive objects (stream order), with sizes; --count reads them for item counts.')
    .option('-t, --table <name>', 'only this table')
    .option('--count', 'read every object and count its items')
    .action(
      guarded(io, async (options: SourceOptions & { count?: boolean }) => {
        const { createProgress, readObjectItems } = await load();
        const store = await storeOf(options, io);
        const { listing, objects } = await selected(store, options, [], true);
        const progress = createProgress({
          label: 'counting',
          total: objects.length,
          unit: 'objects',
          enabled: options.progress && options.count === true && barBesidePrinting(io),
          ...(io.progress === undefined ? {} : { stream: io.progress }),
        });
        let bytes = 0;
        let items = 0;
        for (const object of objects) {
          bytes += object.size;
          const cells = [object.key, `${object.size} B`, object.lastModified.toISOString()];
          if (object.storageClass) cells.push(object.storageClass);
          if (options.count) {
            const count = (await readObjectItems(store, object.key, options.prefix)).length;
            items += count;
            cells.push(`${count} items`);
            progress.increment();
          }
          io.print(cells.join('\t'));
        }
        progress.stop();
        const itemsText = options.count ? `, ${items} items` : '';
        io.print(`${objects.length} objects, ${bytes} bytes${itemsText} in ${store.location}`);
        if (listing.superseded.length > 0)
          io.print(`${listing.superseded.length} superseded attempts skipped (replaced by a later attempt)`);
      }),
    );

  withSource(archive.command('cat'))
    .description('Print archived items as DynamoDB JSON lines ({"Item": {...}}, as a DynamoDB export).')
    .argument('[objects...]', 'object keys (as `archive ls` prints them)')
    .option('--all', 'every object (of --table when given)')
    .option('-t, --table <name>', 'only this table (with --all)')
    .option('--bare', 'print each item alone, without the {"Item": ...} wrapper')
    .action(
      guarded(io, async (keys: string[], options: SourceOptions & { all?: boolean; bare?: boolean }) => {
        if (keys.length === 0 && !options.all) throw new UsageError('name objects to print, or pass --all');
        const { createProgress, readObjectItems } = await load();
        const store = await storeOf(options, io);
        const { objects } = await selected(store, options, keys, options.all === true);
        const progress = createProgress({
          label: 'reading',
          total: objects.length,
          unit: 'objects',
          enabled: options.progress && barBesidePrinting(io),
          ...(io.progress === undefined ? {} : { stream: io.progress }),
        });
        for (const object of objects) {
          for (const item of await readObjectItems(store, object.key, options.prefix))
            io.print(options.bare ? JSON.stringify(item) : `{"Item":${JSON.stringify(item)}}`);
          progress.increment();
        }
        progress.stop();
      }),
    );

  withSource(archive.command('restore'))
    .description('Write archived items back into a table (BatchWriteItem), e.g. after an expiry mistake.')
    .argument('[objects...]', 'only these object keys (default: every object of the table)')
    .requiredOption('-t, --table <name>', 'table to write into')
    .option('--from-table <name>', 'archived table to read (default: --table)')
    .option(
      '--endpoint <url>',
      "DynamoDB endpoint (default: the config's eddy server, else http://127.0.0.1:8000)",
    )
    .option('--aws', 'write to AWS itself: the SDK endpoints and credential chain')
    .option('-r, --region <name>', "DynamoDB region (default: the config's, else AWS_REGION, else us-east-1)")
    .option('--access-key-id <id>', 'DynamoDB access key (with --secret-access-key)')
    .option('--secret-access-key <secret>', 'DynamoDB secret key')
    .option('-c, --config <file>', 'config file for the eddy server address (default: eddy.config.* here)')
    .option('--no-config', 'ignore eddy.config.* in the working directory')
    .addOption(
      new Option(
        '--drop-attribute <name...>',
        'remove these attributes from restored items (the TTL attribute, so they do not expire again)',
      ),
    )
    .action(guarded(io, (keys: string[], options: RestoreCliOptions) => restore(io, keys, options)));

  return archive;
}

interface RestoreCliOptions extends SourceOptions {
  fromTable?: string;
  endpoint?: string;
  aws?: boolean;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  config?: string | false;
  dropAttribute?: string[];
}

async function restore(io: ArchiveCliIo, keys: string[], options: RestoreCliOptions): Promise<void> {
  if ((options.accessKeyId === undefined) !== (options.secretAccessKey === undefined))
    throw new UsageError('--access-key-id and --secret-access-key go together');
  const { createProgress, manifestItemCounts, readObjectItems } = await load();
  const { restoreItems } = await import('./restore.js');
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const target = options.table!;
  // Where to write: a running eddy unless --aws says AWS itself, as `eddy record` and `eddy event`.
  const { EndpointError, optionalConfig } = await import('../cli/commands/serviceOptions.js');
  const { clientConfig, serviceTarget, ServiceTargetError } = await import('../replay/serviceTarget.js');
  const { config } = await optionalConfig(options, io.cwd);
  let where: ReturnType<typeof serviceTarget>;
  try {
    where = serviceTarget(options, config);
  } catch (error) {
    throw error instanceof ServiceTargetError ? new UsageError(error.message) : error;
  }
  const endpoint = where.endpoint;
  const store = await storeOf({ ...options, table: options.fromTable ?? target }, io);
  const { objects } = await selected(store, { ...options, table: options.fromTable ?? target }, keys, false);
  const client = new DynamoDBClient(clientConfig(where));
  // The bar's total from the manifests (items), else (Parquet has none) the objects to read.
  const counts = await manifestItemCounts(store, options.prefix);
  const known = objects.every((object) => counts.has(object.key));
  const progress = createProgress({
    label: 'restoring',
    total: known ? objects.reduce((sum, object) => sum + counts.get(object.key)!, 0) : objects.length,
    unit: known ? 'items' : 'objects',
    enabled: options.progress,
    ...(io.progress === undefined ? {} : { stream: io.progress }),
  });
  async function* items(): AsyncGenerator<Image> {
    for (const object of objects) {
      yield* await readObjectItems(store, object.key, options.prefix);
      if (!known) progress.increment();
    }
  }
  let result: Awaited<ReturnType<typeof restoreItems>>;
  try {
    result = await restoreItems(client, target, items(), {
      ...(options.dropAttribute ? { dropAttributes: options.dropAttribute } : {}),
      ...(known ? { onWritten: (count: number) => progress.increment(count) } : {}),
    }).catch((error: unknown) => {
      throw new EndpointError(error, endpoint);
    });
  } finally {
    progress.stop();
    client.destroy();
  }
  io.print(
    `restored ${result.written} items from ${objects.length} objects into ${target} ` +
      `(${result.requests} requests, ${result.retries} retried)`,
  );
}
