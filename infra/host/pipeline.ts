import type { Logger } from 'pino';
import type { Engine } from '../../core/engine.js';
import {
  DynamoDbError,
  InternalServerError,
  SerializationException,
  UnknownOperationException,
} from '../../core/errors/index.js';
import type { RequestContext } from '../../core/operation.js';
import { acceptedContentType } from './contentType.js';
import { createHostLogger } from './logger.js';
import { RestDispatcher } from './restDispatcher.js';
import type { RestService } from './restService.js';
import { dynamoDbService, type ProtocolService } from './services.js';
import { readSignature, signingRegion } from './signature.js';
import { type AccessKey, SignatureVerifier } from './signatureVerifier.js';
import {
  bodyCrc32,
  JSON_1_0,
  jsonResponse,
  newRequestId,
  PLAIN_JSON,
  UNKNOWN_OPERATION_XML,
  type WireRequest,
  type WireResponse,
} from './wire.js';

/** The service's request size limit (docs/dynamodb.md §1.1.4): 16 MiB, exactly 16 MiB passes. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** The path of eddy's own health check, outside the AWS protocol. */
export const HEALTH_PATH = '/_eddy/health';

export interface PipelineOptions {
  readonly engine: Engine;
  /** Region for requests whose credential scope names none (default: the engine's, `us-east-1`). */
  readonly region?: string;
  /** Account id of every caller (default: the engine's, `000000000000`). */
  readonly accountId?: string;
  /** Largest accepted body in bytes (default 16 MiB). */
  readonly maxBodyBytes?: number;
  /** Keys whose SigV4 signatures are verified. Empty or absent: any well-formed credentials pass. */
  readonly accessKeys?: readonly AccessKey[];
  /** Structured logs; engine bugs are logged at `error` with their stack. */
  readonly logger?: Logger;
  /** One `info` line per request (operation, status, duration). */
  readonly logRequests?: boolean;
  /** Reported by the health endpoint. */
  readonly version?: string;
  /**
   * Runs after every API call (success or error), before its answer; a returned promise delays
   * the answer until it settles (a rejection answers InternalServerError). A data directory's
   * durability wait goes here (`Persistence.afterCall`).
   */
  readonly afterCall?: (
    target: string,
    input: Record<string, unknown>,
    context: RequestContext,
  ) => Promise<void> | undefined;
}

/** What every response of one request shares. */
interface ResponseContext {
  readonly requestId: string;
  readonly contentType: string;
  readonly cors: boolean;
}

/**
 * The DynamoDB JSON 1.0 protocol, transport-free: a `WireRequest` in, a `WireResponse` out. The
 * HTTP server and the in-process client both call `handle`, so they answer byte for byte alike.
 *
 * Checks run in the service's order (docs/dynamodb.md §8.1): 413 → 404 → JSON → target → auth → empty body
 * → the engine's own order.
 */
export class RequestPipeline {
  readonly engine: Engine;
  readonly region: string;
  readonly accountId: string;
  readonly maxBodyBytes: number;
  readonly logger: Logger;
  private readonly logRequests: boolean;
  private readonly verifier: SignatureVerifier | undefined;
  private readonly services = new Map<string, ProtocolService>();
  private readonly targets = new Map<string, { service: ProtocolService; operation: string }>();
  private readonly startedAt = Date.now();
  private readonly version: string | undefined;
  private readonly afterCall: PipelineOptions['afterCall'];
  private readonly rest: RestDispatcher;

  constructor(options: PipelineOptions) {
    this.afterCall = options.afterCall;
    this.engine = options.engine;
    this.region = options.region ?? options.engine.defaultRegion;
    this.accountId = options.accountId ?? options.engine.defaultAccountId;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.logger = options.logger ?? createHostLogger();
    this.logRequests = options.logRequests ?? false;
    this.verifier =
      options.accessKeys !== undefined && options.accessKeys.length > 0
        ? new SignatureVerifier(options.accessKeys)
        : undefined;
    this.version = options.version;
    this.registerService(dynamoDbService(options.engine));
    this.rest = new RestDispatcher({
      region: this.region,
      accountId: this.accountId,
      verifier: this.verifier,
      logger: this.logger,
      logRequests: this.logRequests,
      afterCall: this.afterCall,
      corsPreflight,
    });
  }

  /**
   * Adds a REST API (operations chosen by method and path, e.g. the Lambda API under
   * `/2015-03-31/`): every request whose path the service owns goes to it.
   * @throws Error when a service of that name is registered already.
   */
  registerRestService(service: RestService): void {
    this.rest.register(service);
  }

  /**
   * Adds an API under another `X-Amz-Target` prefix (e.g. `DynamoDBStreams_20120810`).
   * @throws Error when the prefix is taken.
   */
  registerService(service: ProtocolService): void {
    if (service.targetPrefix.includes('.')) {
      throw new Error(`A target prefix cannot contain a dot: ${service.targetPrefix}`);
    }
    if (this.services.has(service.targetPrefix)) {
      throw new Error(`A service is already registered for X-Amz-Target prefix ${service.targetPrefix}`);
    }
    this.services.set(service.targetPrefix, service);
  }

  /**
   * `X-Amz-Target` → service and operation (docs/dynamodb.md §1.2.5), cached: a few dozen distinct targets
   * arrive over and over. Unknown targets are not cached (they are errors, and cheap enough).
   */
  private resolveTarget(target: string): { service: ProtocolService; operation: string } | undefined {
    const cached = this.targets.get(target);
    if (cached !== undefined) return cached;
    const dot = target.indexOf('.');
    const service = dot === -1 ? undefined : this.services.get(target.slice(0, dot));
    const operation = target.slice(dot + 1);
    if (service === undefined || !service.supports(operation)) return undefined;
    const resolved = { service, operation };
    if (this.targets.size < 1024) this.targets.set(target, resolved);
    return resolved;
  }

  /** The target prefixes answered, in registration order. */
  get targetPrefixes(): string[] {
    return [...this.services.keys()];
  }

  /** Answers one request. Synchronous unless signatures are verified or a service is async. */
  handle(request: WireRequest): WireResponse | Promise<WireResponse> {
    if (request.body.length > this.maxBodyBytes) return payloadTooLarge();
    // The JSON 1.0 APIs answer at `/`; any other path may belong to a REST service.
    if (request.url !== '/' && this.rest.size > 0) {
      const path = pathOf(request.url);
      const owner = this.rest.find(path);
      if (owner !== undefined) return this.rest.handle(owner, request, path);
    }
    const cors = request.header('origin') !== undefined;
    if (request.method !== 'POST') return this.handleNonPost(request, newRequestId(), cors);
    const contentType = acceptedContentType(request.header('content-type'));
    const hasBody = request.body.length > 0;
    // docs/dynamodb.md §1.1.2: a foreign content type only matters when there is a body to interpret.
    if (contentType === undefined && hasBody) return notFound(newRequestId(), cors);
    const context: ResponseContext = {
      requestId: newRequestId(),
      contentType: contentType === JSON_1_0 ? JSON_1_0 : PLAIN_JSON, // docs/dynamodb.md §1.1.3
      cors,
    };
    let input: unknown;
    if (hasBody) {
      try {
        input = JSON.parse(request.body.toString('utf8'));
      } catch {
        return errorResponse(new SerializationException(), context);
      }
    }
    const target = request.header('x-amz-target') ?? '';
    const resolved = this.resolveTarget(target);
    if (resolved === undefined) return errorResponse(new UnknownOperationException(), context);
    const { service, operation } = resolved;
    if (this.verifier !== undefined)
      return this.verifyThenExecute(request, service, operation, input, context);
    let region: string;
    try {
      region = signingRegion(request) || this.region;
    } catch (error) {
      return this.failure(error, target, context);
    }
    return this.execute(service, operation, input, { accountId: this.accountId, region }, context);
  }

  /** With configured keys: the full signature check first (docs/dynamodb.md §1.2.6), then the operation. */
  private async verifyThenExecute(
    request: WireRequest,
    service: ProtocolService,
    operation: string,
    input: unknown,
    context: ResponseContext,
  ): Promise<WireResponse> {
    let requestContext: RequestContext;
    try {
      const signature = readSignature(request);
      const key = await this.verifier!.verify(request, signature);
      requestContext = {
        accountId: key.accountId ?? this.accountId,
        region: signature.scopeRegion || this.region,
      };
    } catch (error) {
      return this.failure(error, `${service.targetPrefix}.${operation}`, context);
    }
    return this.execute(service, operation, input, requestContext, context);
  }

  private execute(
    service: ProtocolService,
    operation: string,
    input: unknown,
    requestContext: RequestContext,
    context: ResponseContext,
  ): WireResponse | Promise<WireResponse> {
    // docs/dynamodb.md §1.2.4: an empty body, or JSON that is not an object, once the caller is known.
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return errorResponse(new SerializationException(), context);
    }
    if (this.afterCall !== undefined)
      return this.executeThenWait(
        service,
        operation,
        input as Record<string, unknown>,
        requestContext,
        context,
      );
    const started = this.logRequests ? performance.now() : 0;
    try {
      const output = service.execute(operation, input as Record<string, unknown>, requestContext);
      if (output instanceof Promise) {
        return output.then(
          (resolved) => this.success(resolved, service, operation, context, started),
          (error: unknown) => this.failure(error, `${service.targetPrefix}.${operation}`, context, started),
        );
      }
      return this.success(output, service, operation, context, started);
    } catch (error) {
      return this.failure(error, `${service.targetPrefix}.${operation}`, context, started);
    }
  }

  /** `execute` with the `afterCall` hook: the answer waits for what the hook returns. */
  private executeThenWait(
    service: ProtocolService,
    operation: string,
    input: Record<string, unknown>,
    requestContext: RequestContext,
    context: ResponseContext,
  ): WireResponse | Promise<WireResponse> {
    const target = `${service.targetPrefix}.${operation}`;
    const started = this.logRequests ? performance.now() : 0;
    const settle = (): Promise<void> | undefined => this.afterCall!(target, input, requestContext);
    let output: Record<string, unknown> | Promise<Record<string, unknown>>;
    try {
      output = service.execute(operation, input, requestContext);
    } catch (error) {
      const wait = settle();
      if (wait === undefined) return this.failure(error, target, context, started);
      return wait.then(
        () => this.failure(error, target, context, started),
        (waitError: unknown) => this.failure(waitError, target, context, started),
      );
    }
    if (!(output instanceof Promise)) {
      const wait = settle();
      if (wait === undefined) return this.success(output, service, operation, context, started);
      const ready = output;
      return wait.then(
        () => this.success(ready, service, operation, context, started),
        (waitError: unknown) => this.failure(waitError, target, context, started),
      );
    }
    return output
      .then(
        async (resolved) => {
          await settle();
          return this.success(resolved, service, operation, context, started);
        },
        async (error: unknown) => {
          await settle();
          return this.failure(error, target, context, started);
        },
      )
      .catch((error: unknown) => this.failure(error, target, context, started));
  }

  private success(
    output: Record<string, unknown>,
    service: ProtocolService,
    operation: string,
    context: ResponseContext,
    started: number,
  ): WireResponse {
    const response = jsonResponse(
      200,
      Buffer.from(service.serialize === undefined ? JSON.stringify(output) : service.serialize(output)),
      context.contentType,
      context.requestId,
      context.cors,
    );
    if (this.logRequests) this.logRequest(`${service.targetPrefix}.${operation}`, 200, context, started);
    return response;
  }

  private failure(error: unknown, target: string, context: ResponseContext, started = 0): WireResponse {
    let wireError: DynamoDbError;
    if (error instanceof DynamoDbError) {
      wireError = error;
    } else {
      // Never a crash for bad input: an eddy bug becomes the service's 500, with its stack logged.
      this.logger.error({ err: error, target, requestId: context.requestId }, 'internal error');
      wireError = new InternalServerError('Internal server error');
    }
    if (this.logRequests) {
      this.logRequest(target, wireError.statusCode, context, started, wireError.name);
    }
    return errorResponse(wireError, context);
  }

  private logRequest(
    target: string,
    status: number,
    context: ResponseContext,
    started: number,
    error?: string,
  ) {
    const ms = started === 0 ? undefined : Math.round((performance.now() - started) * 1000) / 1000;
    this.logger.info({ requestId: context.requestId, target, status, ms, error }, 'request');
  }

  private handleNonPost(request: WireRequest, requestId: string, cors: boolean): WireResponse {
    if (request.method === 'OPTIONS' && cors) return corsPreflight(request, requestId);
    if (request.method === 'GET') {
      const path = pathOf(request.url);
      // docs/dynamodb.md §1.1.6: the service's own health text, trailing space included.
      if (path === '/')
        return textResponse(`healthy: dynamodb.${this.region}.amazonaws.com `, requestId, cors);
      if (path === HEALTH_PATH) {
        const body = Buffer.from(JSON.stringify(this.health()));
        return jsonResponse(200, body, PLAIN_JSON, requestId, cors);
      }
    }
    return notFound(requestId, cors);
  }

  /** `GET /_eddy/health`: a JSON summary for scripts and container health checks. */
  health(): Record<string, unknown> {
    let tables = 0;
    for (const region of this.engine.allRegions()) tables += region.tables.size;
    return {
      status: 'ok',
      service: 'eddy',
      ...(this.version === undefined ? {} : { version: this.version }),
      region: this.region,
      accountId: this.accountId,
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      tables,
      targets: this.targetPrefixes,
      ...(this.rest.size === 0 ? {} : { restApis: this.rest.names }),
      signatureVerification: this.verifier !== undefined,
    };
  }
}

function pathOf(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}

/** docs/dynamodb.md §1.2.2: the error's wire JSON (`__type`, `message` or `Message`), status 400 or 500. */
function errorResponse(error: DynamoDbError, context: ResponseContext): WireResponse {
  const body = Buffer.from(JSON.stringify(error.toWire()));
  return jsonResponse(error.statusCode, body, context.contentType, context.requestId, context.cors);
}

const UNKNOWN_OPERATION_XML_CRC = bodyCrc32(UNKNOWN_OPERATION_XML);

/**
 * docs/dynamodb.md §1.1.2: 404 `<UnknownOperationException/>` for non-POST methods and foreign content types.
 */
function notFound(requestId: string, cors: boolean): WireResponse {
  const headers = [
    'x-amzn-RequestId',
    requestId,
    'x-amz-crc32',
    UNKNOWN_OPERATION_XML_CRC,
    'Content-Length',
    String(UNKNOWN_OPERATION_XML.length),
  ];
  if (cors) headers.push('Access-Control-Allow-Origin', '*');
  return { statusCode: 404, headers, body: UNKNOWN_OPERATION_XML };
}

/** docs/dynamodb.md §1.1.4: over the limit, 413 before anything is parsed; no request id. */
export function payloadTooLarge(): WireResponse {
  return { statusCode: 413, headers: ['Content-Length', '0', 'Connection', 'close'], body: Buffer.alloc(0) };
}

function textResponse(text: string, requestId: string, cors: boolean): WireResponse {
  const body = Buffer.from(text);
  const headers = [
    'x-amzn-RequestId',
    requestId,
    'x-amz-crc32',
    bodyCrc32(body),
    'Content-Type',
    'text/plain',
    'Content-Length',
    String(body.length),
  ];
  if (cors) headers.push('Access-Control-Allow-Origin', '*');
  return { statusCode: 200, headers, body };
}

/**
 * docs/dynamodb.md §1.1.6: `OPTIONS` with `Origin` answers 200, empty, echoing the requested headers and
 * method.
 */
export function corsPreflight(request: WireRequest, requestId: string): WireResponse {
  const headers = ['x-amzn-RequestId', requestId, 'Access-Control-Allow-Origin', '*'];
  const requestedHeaders = request.header('access-control-request-headers');
  if (requestedHeaders !== undefined) headers.push('Access-Control-Allow-Headers', requestedHeaders);
  const requestedMethod = request.header('access-control-request-method');
  if (requestedMethod !== undefined) headers.push('Access-Control-Allow-Methods', requestedMethod);
  // CRC-32 of the empty body is 0 (docs/dynamodb.md §1.2.1: every response carries one).
  headers.push('Access-Control-Max-Age', '172800', 'x-amz-crc32', '0', 'Content-Length', '0');
  return { statusCode: 200, headers, body: Buffer.alloc(0) };
}
