import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { createProgram } from '../../infra/cli/program.js';
import type { EddyConfig, TableConfig } from '../../infra/config.js';
import { createHostLogger } from '../../infra/host/logger.js';
import { LocalStack, type StackOptions } from '../../infra/stack/localStack.js';
import { type CommandRun, runProgram } from '../helpers/command.js';

const directories: string[] = [];

/** A fresh temp directory, removed by `removeTempDirs`. */
export function tempDir(label = 'replay'): string {
  const directory = mkdtempSync(join(tmpdir(), `eddy-${label}-`));
  directories.push(directory);
  return directory;
}

export function removeTempDirs(): void {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
}

/** Orders: a string partition key and a number sort key, NEW_AND_OLD_IMAGES stream. */
export const ORDERS: TableConfig = {
  TableName: 'Orders',
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'N' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  BillingMode: 'PAY_PER_REQUEST',
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
};

export interface Served {
  readonly stack: LocalStack;
  readonly url: string;
}

/** A local stack served on a loopback port (real HTTP, real SDK clients on the other side). */
export async function serveStack(config: EddyConfig, options: StackOptions = {}): Promise<Served> {
  const stack = await LocalStack.start(config, { logger: createHostLogger({ level: 'silent' }), ...options });
  const { url } = await stack.listen({ port: 0 });
  return { stack, url };
}

export type CliRun = CommandRun;

/** Runs `eddy ...args` in process: the whole program, with the replay commands. */
export const eddy = (cwd: string, ...args: string[]): Promise<CliRun> => runProgram(createProgram, args, cwd);

/**
 * The writes the tests record: six orders inserted, three modified, two deleted. Returns each
 * item's changes in write order (by `pk#sk`).
 */
export async function writeOrders(stack: LocalStack): Promise<Map<string, string[]>> {
  const client = stack.client();
  const changes = new Map<string, string[]>();
  const note = (pk: string, sk: number, name: string) => {
    const key = `${pk}#${sk}`;
    changes.set(key, [...(changes.get(key) ?? []), name]);
  };
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  for (const [index, pk] of ids.entries()) {
    await client.send(
      new PutItemCommand({
        TableName: 'Orders',
        Item: {
          pk: { S: pk },
          sk: { N: String(index) },
          status: { S: 'open' },
          total: { N: String(10 * (index + 1)) },
          blob: { B: new Uint8Array([index, 255, 0]) },
          lines: { L: [{ M: { sku: { S: `sku-${pk}` }, qty: { N: '2' } } }] },
        },
      }),
    );
    note(pk, index, 'INSERT');
  }
  for (const [pk, sk] of [
    ['a', 0],
    ['b', 1],
    ['c', 2],
  ] as const) {
    await client.send(
      new UpdateItemCommand({
        TableName: 'Orders',
        Key: { pk: { S: pk }, sk: { N: String(sk) } },
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': { S: 'paid' } },
      }),
    );
    note(pk, sk, 'MODIFY');
  }
  for (const [pk, sk] of [
    ['a', 0],
    ['d', 3],
  ] as const) {
    await client.send(
      new DeleteItemCommand({ TableName: 'Orders', Key: { pk: { S: pk }, sk: { N: String(sk) } } }),
    );
    note(pk, sk, 'REMOVE');
  }
  client.destroy();
  return changes;
}

/** `pk#sk` of a record. */
export function itemOf(record: DynamoDBRecord): string {
  const keys = record.dynamodb!.Keys!;
  return `${keys.pk!.S}#${keys.sk!.N}`;
}

/** The lines of a JSON-lines file, parsed. */
export function readLines<T = DynamoDBRecord>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
