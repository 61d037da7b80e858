import { type Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Engine } from '../../core/engine.js';
import { EddyServer, type ServerOptions } from '../../infra/host/server.js';
import type { ProtocolService } from '../../infra/host/services.js';

/** Raw HTTP for protocol edge cases the SDKs never send. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: Record<string, unknown> | undefined;
  /** Whether the request went out on a kept-alive socket. */
  readonly reusedSocket: boolean;
}

export interface RawRequest {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string | number>;
  readonly body?: string | Buffer;
  /** Send the body chunked (no Content-Length). */
  readonly chunked?: boolean;
  readonly agent?: Agent | false;
}

/** A well-formed SigV4 Authorization header (not a valid signature: default eddy accepts it). */
export function fakeAuthorization(region = 'us-east-1', keyId = 'AKIDEXAMPLE'): Record<string, string> {
  return {
    Authorization:
      `AWS4-HMAC-SHA256 Credential=${keyId}/20260101/${region}/dynamodb/aws4_request, ` +
      'SignedHeaders=host;x-amz-date;x-amz-target, Signature=0123456789abcdef',
    'X-Amz-Date': '20260101T000000Z',
  };
}

/** JSON 1.0 headers with a target and a well-formed (fake) signature. */
export function jsonHeaders(target: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'Content-Type': 'application/x-amz-json-1.0',
    'X-Amz-Target': target,
    ...fakeAuthorization(),
    ...extra,
  };
}

export function send(url: string, options: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(options.path ?? '/', url);
    const headers: Record<string, string | number> = { ...options.headers };
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    if (body !== undefined && !options.chunked) headers['Content-Length'] = body.length;
    const request = httpRequest(
      target,
      { method: options.method ?? 'POST', headers, agent: options.agent ?? false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const buffer = Buffer.concat(chunks);
          const text = buffer.toString('utf8');
          let json: Record<string, unknown> | undefined;
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            json = undefined;
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: buffer,
            text,
            json,
            reusedSocket: request.reusedSocket,
          });
        });
        response.on('error', reject);
      },
    );
    // A server that answers 413 early may close before the whole body is written: the answer
    // has arrived by then, so a write error after the response is not the test's concern.
    request.on('error', (error) => reject(error));
    if (body !== undefined) request.write(body);
    request.end();
  });
}

/** A test service under its own target prefix: `Echo` returns what the host passed on. */
export function echoService(overrides: Partial<ProtocolService> = {}): ProtocolService {
  return {
    targetPrefix: 'EddyTest_20990101',
    supports: (operation) => ['Echo', 'Fail', 'Slow'].includes(operation),
    execute: (operation, input, context) => {
      if (operation === 'Fail') throw new TypeError('a bug in a service');
      return { operation, input, context };
    },
    ...overrides,
  };
}

/** A started server on a free loopback port with the echo service registered. */
export async function startServer(
  options: Partial<ServerOptions> = {},
  service: ProtocolService = echoService(),
): Promise<{ server: EddyServer; engine: Engine; url: string }> {
  const engine = options.engine ?? new Engine();
  const server = new EddyServer({ ...options, engine, port: 0 });
  server.registerService(service);
  const { url } = await server.listen();
  return { server, engine, url };
}
