import { createRequire } from 'node:module';
import type { DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import type { HttpHandler, HttpResponse } from '@smithy/core/protocols';
import type {
  AwsCredentialIdentity,
  HttpHandlerOptions,
  HttpRequest,
  QueryParameterBag,
} from '@smithy/types';
import type { Engine } from '../../core/engine.js';
import { type PipelineOptions, RequestPipeline } from './pipeline.js';
import { recordRequest } from './wire.js';

// The AWS SDK is loaded when the first in-process client is made: `eddy serve` answers over
// HTTP and never needs it (loading it costs ~0.15 s of CPU, bench/startup.ts). The SDK's
// packages are CommonJS in Node (`main`, or `node` first in `exports`), so `require` gives the
// same module an `import` would: errors thrown through this client are the user's SDK classes.
const require = createRequire(import.meta.url);
let sdk: typeof import('@aws-sdk/client-dynamodb') | undefined;
let protocols: typeof import('@smithy/core/protocols') | undefined;
const dynamoDbSdk = () =>
  (sdk ??= require('@aws-sdk/client-dynamodb') as typeof import('@aws-sdk/client-dynamodb'));
const smithyProtocols = () =>
  (protocols ??= require('@smithy/core/protocols') as typeof import('@smithy/core/protocols'));

/**
 * Loads what in-process clients need now rather than with the first one: the test kit calls it
 * when it is imported, so the SDK's load counts once, not in the first test's stack start.
 */
export function loadLocalClientModules(): void {
  dynamoDbSdk();
  smithyProtocols();
}

/** The endpoint the in-process client pretends to call; nothing listens there. */
export const LOCAL_ENDPOINT = 'http://eddy.local';

export interface LocalClientOptions extends Partial<Omit<PipelineOptions, 'engine' | 'region'>> {
  /** The engine to answer (required unless `pipeline` is given). */
  readonly engine?: Engine;
  /** An existing pipeline, e.g. `server.pipeline`, to share its registered services and settings. */
  readonly pipeline?: RequestPipeline;
  /** The region the client signs for; tables live per region (default: the pipeline's). */
  readonly region?: string;
  /** Credentials to sign with (default: static `eddy`/`eddy`). */
  readonly credentials?: AwsCredentialIdentity;
  /** Further SDK settings (`maxAttempts`, `logger`, middleware-related options...). */
  readonly client?: Omit<DynamoDBClientConfig, 'endpoint' | 'requestHandler' | 'region' | 'credentials'>;
}

/**
 * A real `DynamoDBClient` with no socket: its request handler passes each serialized request to
 * the same `RequestPipeline` the HTTP server uses and hands back the serialized response. The
 * SDK's own middleware runs unchanged (marshalling, signing, retries, error classes with
 * `$metadata.httpStatusCode`), and `DynamoDBDocumentClient.from(client)` works on it.
 *
 * @example
 * ```ts
 * const client = createLocalClient({ engine: new Engine() });
 * await client.send(new ListTablesCommand({}));
 * const documents = DynamoDBDocumentClient.from(client);
 * ```
 */
export function createLocalClient(options: LocalClientOptions): DynamoDBClient {
  const { engine, pipeline: givenPipeline, region, credentials, client, ...pipelineOptions } = options;
  let pipeline = givenPipeline;
  if (pipeline === undefined) {
    if (engine === undefined) throw new TypeError('createLocalClient needs an engine or a pipeline');
    pipeline = new RequestPipeline({ ...pipelineOptions, engine });
  }
  return new (dynamoDbSdk().DynamoDBClient)({
    ...client,
    region: region ?? pipeline.region,
    endpoint: LOCAL_ENDPOINT,
    // Static credentials by default: the SDK's provider chain would read ~/.aws for nothing.
    credentials: credentials ?? { accessKeyId: 'eddy', secretAccessKey: 'eddy' },
    requestHandler: new LocalRequestHandler(pipeline),
  });
}

/** The Smithy `HttpHandler` that answers from the pipeline instead of a socket. */
export class LocalRequestHandler implements HttpHandler {
  readonly metadata = { handlerProtocol: 'eddy/in-process' };

  constructor(readonly pipeline: RequestPipeline) {}

  async handle(request: HttpRequest, options?: HttpHandlerOptions): Promise<{ response: HttpResponse }> {
    if (options?.abortSignal?.aborted) {
      const error = new Error('Request aborted');
      error.name = 'AbortError';
      throw error;
    }
    const headers: Record<string, string> = {};
    for (const name of Object.keys(request.headers)) headers[name.toLowerCase()] = request.headers[name]!;
    const wireRequest = recordRequest(
      request.method,
      request.path + queryString(request.query),
      headers,
      bodyBuffer(request.body),
    );
    const wire = await this.pipeline.handle(wireRequest);
    const responseHeaders: Record<string, string> = {};
    // Lower-case names, as node:http delivers them to the SDK's deserializers.
    for (let i = 0; i < wire.headers.length; i += 2) {
      responseHeaders[wire.headers[i]!.toLowerCase()] = wire.headers[i + 1]!;
    }
    return {
      response: new (smithyProtocols().HttpResponse)({
        statusCode: wire.statusCode,
        headers: responseHeaders,
        body: wire.body,
      }),
    };
  }

  updateHttpClientConfig(): void {}

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {}
}

function bodyBuffer(body: unknown): Buffer {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('The in-process client only carries string or byte bodies');
}

function queryString(query: QueryParameterBag | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
