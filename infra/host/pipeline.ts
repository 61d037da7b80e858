import { isUtf8 } from 'node:buffer';
import type { Logger } from 'pino';
import type { Engine } from '../../core/engine.js';
import { DynamoDbError, InternalServerError, SerializationException } from '../../core/errors/index.js';
import type { RequestContext } from '../../core/operation.js';
import { acceptedContentType } from './contentType.js';
import { CorsPolicy, type CorsSetting } from './cors.js';
import { type HealthCheck, healthStatus, problemsOf } from './health.js';
import { createHostLogger } from './logger.js';
import {
  corsPreflight,
  errorResponse,
  forbiddenOrigin,
  notFound,
  payloadTooLarge,
  type ResponseContext,
  textResponse,
} from './responses.js';
import { RestDispatcher } from './restDispatcher.js';
import type { RestService } from './restService.js';
import { dynamoDbService, type ProtocolService } from './services.js';
import { readSignature, signingRegion } from './signature.js';
import { type AccessKey, SignatureVerifier } from './signatureVerifier.js';
import { unknownOperation } from './unservedOperations.js';
import {
  JSON_1_0,
  jsonResponse,
  newRequestId,
  PLAIN_JSON,
  type WireRequest,
  type WireResponse,
} from './wire.js';

/** The service's request size limit (docs/dynamodb.md §1.1.4): 16 MiB, exactly 16 MiB passes. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** The path of eddy's own health check, outside the AWS protocol. */
export const HEALTH_PATH = '/_eddy/health';

export interface PipelineOptions {
  readonly engine: Engine;
  /** The region `GET /` names (default: the engine's, `us-east-1`); requests use their scope's. */
  readonly region?: string;
  /** Account id of every caller (default: the engine's, `000000000000`). */
  readonly accountId?: string;
  /** Largest accepted body in bytes (default 16 MiB). */
  readonly maxBodyBytes?: number;
  /**
   * Which web pages may call from a browser: by default pages from this machine only; more
   * origins, or `*` for every origin as DynamoDB answers (see `cors.ts`).
   */
  readonly cors?: CorsSetting;
  /** Keys whose SigV4 signatures are verified. Empty or absent: any well-formed credentials pass. */
  readonly accessKeys?: readonly AccessKey[];
  /** The machine's clock in ms, which signing times must be within 15 minutes of (default `Date.now`). */
  readonly wallClock?: () => number;
  /** Structured logs; engine bugs are logged at `error` with their stack. */
  readonly logger?: Logger;
  /** One `info` line per request (operation, status, duration). */
  readonly logRequests?: boolean;
  /** Reported by the health endpoint. */
  readonly version?: string;
  /** What can make the host unhealthy (`health.ts`). */
  readonly healthChecks?: readonly HealthCheck[];
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
  private readonly cors: CorsPolicy;
  private readonly services = new Map<string, ProtocolService>();
  private readonly targets = new Map<string, { service: ProtocolService; operation: string }>();
  private readonly startedAt = Date.now();
  private readonly version: string | undefined;
  private readonly afterCall: PipelineOptions['afterCall'];
  private readonly healthChecks: readonly HealthCheck[];
  private readonly rest: RestDispatcher;

  constructor(options: PipelineOptions) {
    this.afterCall = options.afterCall;
    this.healthChecks = options.healthChecks ?? [];
    this.engine = options.engine;
    this.region = options.region ?? options.engine.defaultRegion;
    this.accountId = options.accountId ?? options.engine.defaultAccountId;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.logger = options.logger ?? createHostLogger();
    this.logRequests = options.logRequests ?? false;
    this.verifier =
      options.accessKeys !== undefined && options.accessKeys.length > 0
        ? new SignatureVerifier(options.accessKeys, options.wallClock)
        : undefined;
    this.version = options.version;
    this.cors = new CorsPolicy(options.cors);
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
    // A browser says where the calling page comes from; only the allowed origins are served.
    const origin = request.header('origin');
    let corsOrigin: string | undefined;
    if (origin !== undefined) {
      corsOrigin = this.cors.allow(origin);
      if (corsOrigin === undefined) return forbiddenOrigin(origin, newRequestId());
    }
    // The JSON 1.0 APIs answer at `/`; any other path may belong to a REST service.
    if (request.url !== '/' && this.rest.size > 0) {
      const path = pathOf(request.url);
      const owner = this.rest.find(path);
      if (owner !== undefined) return this.rest.handle(owner, request, path, corsOrigin);
    }
    if (request.method !== 'POST') return this.handleNonPost(request, newRequestId(), corsOrigin);
    const contentType = acceptedContentType(request.header('content-type'));
    const hasBody = request.body.length > 0;
    // docs/dynamodb.md §1.1.2: a foreign content type only matters when there is a body to interpret.
    if (contentType === undefined && hasBody) return notFound(newRequestId(), corsOrigin);
    const context: ResponseContext = {
      requestId: newRequestId(),
      contentType: contentType === JSON_1_0 ? JSON_1_0 : PLAIN_JSON, // docs/dynamodb.md §1.1.3
      corsOrigin,
    };
    let input: unknown;
    if (hasBody) {
      // Bytes that are not UTF-8 fail the service's JSON parser (Jackson) like any malformed
      // JSON; decoding them would store U+FFFD instead (see docs/security.md, "Invalid UTF-8").
      if (!isUtf8(request.body)) return errorResponse(new SerializationException(), context);
      try {
        input = JSON.parse(request.body.toString('utf8'));
      } catch {
        return errorResponse(new SerializationException(), context);
      }
    }
    const target = request.header('x-amz-target') ?? '';
    const resolved = this.resolveTarget(target);
    if (resolved === undefined) return errorResponse(unknownOperation(target), context);
    const { service, operation } = resolved;
    if (this.verifier !== undefined)
      return this.verifyThenExecute(request, service, operation, input, context);
    let region: string;
    try {
      region = signingRegion(request);
    } catch (error) {
      return this.failure(error, target, context);
    }
    return this.execute(
      service,
      operation,
      input,
      { accountId: this.accountId, region, ...hostOf(request) },
      context,
    );
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
        region: signature.scopeRegion,
        ...hostOf(request),
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
      context.corsOrigin,
    );
    if (this.logRequests) this.logRequest(`${service.targetPrefix}.${operation}`, 200, context, started);
    return response;
  }

  private failure(error: unknown, target: string, context: ResponseContext, started = 0): WireResponse {
    let wireError: DynamoDbError;
    if (error instanceof DynamoDbError) {
      wireError = error;
    } else {
      // Never a crash for bad input: an eddy bug becomes the service's 500, with its stack logged;
      // a known problem (a failed log) was logged once already.
      if (!problemsOf(this.healthChecks).some((problem) => problem.error === error))
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

  private handleNonPost(
    request: WireRequest,
    requestId: string,
    corsOrigin: string | undefined,
  ): WireResponse {
    if (request.method === 'OPTIONS' && corsOrigin !== undefined)
      return corsPreflight(request, requestId, corsOrigin);
    if (request.method === 'GET') {
      const path = pathOf(request.url);
      // docs/dynamodb.md §1.1.6: the service's own health text, trailing space included.
      if (path === '/')
        return textResponse(`healthy: dynamodb.${this.region}.amazonaws.com `, requestId, corsOrigin);
      if (path === HEALTH_PATH) {
        const health = this.health();
        const body = Buffer.from(JSON.stringify(health));
        return jsonResponse(health.status === 'ok' ? 200 : 503, body, PLAIN_JSON, requestId, corsOrigin);
      }
    }
    return notFound(requestId, corsOrigin);
  }

  /**
   * `GET /_eddy/health`: a JSON summary for scripts and container health checks; `status` is
   * `ok` (200), or `failing` (503) with the `reason`.
   */
  health(): Record<string, unknown> & { status: 'ok' | 'failing' } {
    let tables = 0;
    for (const region of this.engine.allRegions()) tables += region.tables.size;
    return {
      ...healthStatus(problemsOf(this.healthChecks)),
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

/** The `Host` the caller reached eddy at, for DescribeEndpoints. */
function hostOf(request: WireRequest): { host?: string } {
  const host = request.header('host');
  return host === undefined || host === '' ? {} : { host };
}

function pathOf(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}
