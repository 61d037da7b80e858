import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { lambdaZip } from '../../infra/build/zip.js';
import { addBuildCommand } from '../../infra/cli/commands/build.js';
import type { EddyConfig } from '../../infra/config.js';
import { runCommand } from '../helpers/command.js';

/** A table with a NEW_AND_OLD_IMAGES stream, keyed by `orderId`. */
export const ORDERS: NonNullable<EddyConfig['tables']>[number] = {
  TableName: 'Orders',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'orderId', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'orderId', KeyType: 'HASH' }],
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
};

export const ROLE = 'arn:aws:iam::000000000000:role/orders-audit';

/**
 * A stream handler as a project writes it: it logs each order it sees, fails when asked, and
 * returns how many records it got.
 */
const AUDIT_SOURCE = `
interface OrderRecord {
  readonly eventName: string;
  readonly dynamodb: { readonly NewImage?: Record<string, { readonly S?: string }> };
}
export const handler = async (event: { Records?: OrderRecord[]; fail?: string }) => {
  if (event.fail !== undefined) throw new TypeError(event.fail);
  for (const record of event.Records ?? [])
    console.log(record.eventName, record.dynamodb.NewImage?.orderId?.S, record.dynamodb.NewImage?.status?.S);
  return { seen: event.Records?.length ?? 0 };
};
`;

export interface BuiltProject {
  readonly directory: string;
  /** The deployment package `eddy build` wrote. */
  readonly zipFile: string;
  readonly zip: Uint8Array;
  remove(): void;
}

/** A project with one handler, built with `eddy build` into a temp dir (the zip Lambda deploys). */
export async function buildAuditProject(): Promise<BuiltProject> {
  const directory = mkdtempSync(join(tmpdir(), 'eddy-lambda-api-'));
  mkdirSync(join(directory, 'src'));
  writeFileSync(join(directory, 'src', 'audit.ts'), AUDIT_SOURCE);
  writeFileSync(
    join(directory, 'eddy.config.json'),
    JSON.stringify({ functions: { audit: { handler: './src/audit.ts' } } }),
  );
  const run = await runCommand(
    addBuildCommand,
    ['build', '--config', 'eddy.config.json', '--out', 'dist'],
    directory,
  );
  if (run.code !== 0) throw new Error(`eddy build failed: ${run.err.join('\n')}`);
  const zipFile = join(directory, 'dist', 'functions', 'audit.zip');
  return {
    directory,
    zipFile,
    zip: readFileSync(zipFile),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** A LambdaClient over HTTP, as a test written against AWS makes one. */
export function httpLambdaClient(endpoint: string): LambdaClient {
  return new LambdaClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/** What the handler logged about orders, across its invocations (its `INFO` lines). */
export function auditedOrders(invocations: readonly { readonly logs: readonly string[] }[]): string[] {
  return invocations.flatMap((invocation) =>
    invocation.logs
      .filter((line) => line.includes('\tINFO\t'))
      .map((line) => line.slice(line.indexOf('\tINFO\t') + '\tINFO\t'.length)),
  );
}

/** A one-file package (`index.mjs` by default), zipped as `eddy build` zips. */
export function zipOf(source: string, file = 'index.mjs'): Uint8Array {
  return lambdaZip({ [file]: Buffer.from(source) });
}

/** CreateFunction's required members for a Node.js function from a zip. */
export function functionInput(name: string, zip: Uint8Array) {
  return {
    FunctionName: name,
    Runtime: 'nodejs22.x',
    Role: ROLE,
    Handler: 'index.handler',
    Code: { ZipFile: zip },
  } as const;
}
