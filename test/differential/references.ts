import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import type { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Engine } from '../../core/engine.js';
import { EddyServer } from '../../infra/host/server.js';
import { jsonHeaders, send } from '../infra/rawHttp.js';

/**
 * Servers eddy is compared with, request by request: eddy itself over loopback HTTP, dynalite
 * (a devDependency; its texts were recorded against DynamoDB years ago) and moto (`moto_server`,
 * python; started on a free port). They share no code with eddy.
 */
export interface Reference {
  readonly name: string;
  readonly url: string;
  close(): Promise<void>;
}

/** One answer reduced to what a user's assertions see: status, exception name, message. */
export interface Answer {
  readonly status: number;
  /** The exception name (`ValidationException`), or `OK`. */
  readonly error: string;
  readonly message: string;
  readonly body: Record<string, unknown> | undefined;
}

export async function startEddy(): Promise<Reference> {
  const server = new EddyServer({ engine: new Engine(), port: 0 });
  const { url } = await server.listen();
  return { name: 'eddy', url, close: () => server.close() };
}

export async function startDynalite(): Promise<Reference> {
  const dynalite = createRequire(import.meta.url)('dynalite') as (
    options: object,
  ) => ReturnType<typeof createServer>;
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    name: 'dynalite',
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether `moto_server` can run here (python and moto 5 installed, as on CI). */
export const motoAvailable = spawnSync('moto_server', ['--help'], { stdio: 'ignore' }).status === 0;

export async function startMoto(): Promise<Reference> {
  const child: ChildProcess = spawn('moto_server', ['-p0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`moto_server exited (${code}): ${output}`)));
  });
  return {
    name: 'moto',
    url,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

/** Sends one DynamoDB request and reduces the answer. */
export async function call(reference: Reference, operation: string, body: unknown): Promise<Answer> {
  const response = await send(reference.url, {
    headers: jsonHeaders(`DynamoDB_20120810.${operation}`),
    body: JSON.stringify(body),
  });
  const json = response.json;
  if (response.status === 200) return { status: 200, error: 'OK', message: '', body: json };
  const type = String(json?.__type ?? '');
  return {
    status: response.status,
    error: type.slice(type.indexOf('#') + 1),
    message: String(json?.message ?? json?.Message ?? ''),
    body: json,
  };
}

/**
 * A constraint list as a set: the service does not fix the order of its entries
 * (docs/dynamodb.md §1.2.8), only which ten it reports.
 */
export function constraintEntries(message: string): string[] | undefined {
  const match = /^\d+ validation errors? detected: (.*)$/s.exec(message);
  return match ? match[1]!.split('; ').sort() : undefined;
}

/** The caller named in an AccessDeniedException differs by server: only its shape matters. */
export function withoutCaller(message: string): string {
  return message.replace(/^User: arn:aws:iam::\d+:\S+ is/, 'User: <caller> is');
}
