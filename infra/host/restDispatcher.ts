import type { Logger } from 'pino';
import type { RequestContext } from '../../core/operation.js';
import type { RestAnswer, RestRequest, RestRoute, RestService } from './restService.js';
import { RestRouter } from './restService.js';
import { readSignature, signingRegion } from './signature.js';
import type { SignatureVerifier } from './signatureVerifier.js';
import { allowOrigin, newRequestId, PLAIN_JSON, type WireRequest, type WireResponse } from './wire.js';

export interface RestDispatcherOptions {
  readonly region: string;
  readonly accountId: string;
  readonly verifier: SignatureVerifier | undefined;
  readonly logger: Logger;
  readonly logRequests: boolean;
  /** The pipeline's `afterCall` hook: the answer waits for what it returns (durability). */
  readonly afterCall:
    | ((target: string, input: Record<string, unknown>, context: RequestContext) => Promise<void> | undefined)
    | undefined;
  /** The host's CORS preflight answer (`OPTIONS` from an allowed `Origin`). */
  readonly corsPreflight: (request: WireRequest, requestId: string, corsOrigin: string) => WireResponse;
}

interface RegisteredService {
  readonly service: RestService;
  readonly router: RestRouter;
}

const NO_INPUT: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * The REST side of the pipeline: finds the service that owns a path, routes by method and path,
 * checks the caller as for every API (SigV4 scope named after the service's signing name), runs
 * the route and writes its answer. Errors become the service's own error answers.
 */
export class RestDispatcher {
  private readonly services: RegisteredService[] = [];

  constructor(private readonly options: RestDispatcherOptions) {}

  register(service: RestService): void {
    if (this.services.some((registered) => registered.service.name === service.name))
      throw new Error(`A REST service named ${service.name} is already registered`);
    this.services.push({ service, router: new RestRouter(service.routes) });
  }

  get size(): number {
    return this.services.length;
  }

  get names(): string[] {
    return this.services.map(({ service }) => service.name);
  }

  /** The service owning a path, if any. */
  find(path: string): RegisteredService | undefined {
    return this.services.find(({ service }) => service.owns(path));
  }

  /**
   * Answers a request for `service`. `corsOrigin`: the `Access-Control-Allow-Origin` of a
   * browser's request, which the pipeline has checked against its CORS policy.
   */
  handle(
    { service, router }: RegisteredService,
    request: WireRequest,
    path: string,
    corsOrigin: string | undefined,
  ): WireResponse | Promise<WireResponse> {
    const requestId = service.newRequestId?.() ?? newRequestId();
    const cors = corsOrigin;
    if (request.method === 'OPTIONS' && cors !== undefined)
      return this.options.corsPreflight(request, requestId, cors);
    const mark = request.url.indexOf('?');
    const restRequest = (params: Record<string, string>): RestRequest => ({
      method: request.method,
      path,
      params,
      query: new URLSearchParams(mark === -1 ? '' : request.url.slice(mark + 1)),
      body: request.body,
      requestId,
      header: (name) => request.header(name),
    });
    const matched = router.match(request.method, path);
    if (matched === undefined) return toWire(service.unknownRoute(restRequest({})), requestId, cors);
    const { route, params } = matched;
    const started = this.options.logRequests ? performance.now() : 0;
    const finish = (answer: RestAnswer): WireResponse => {
      if (this.options.logRequests) {
        const ms = Math.round((performance.now() - started) * 1000) / 1000;
        this.options.logger.info(
          { requestId, target: `${service.name}.${route.operation}`, status: answer.status, ms },
          'request',
        );
      }
      return toWire(answer, requestId, cors);
    };
    const fail = (error: unknown): WireResponse => {
      const answer = service.errorAnswer(error);
      if (answer !== undefined) return finish(answer);
      this.options.logger.error(
        { err: error, target: `${service.name}.${route.operation}`, requestId },
        'internal error',
      );
      return finish(service.internalError());
    };
    const signingName = service.signingName;
    if (this.options.verifier !== undefined && signingName !== undefined) {
      const verifier = this.options.verifier;
      return (async () => {
        let context: RequestContext;
        try {
          const signature = readSignature(request);
          const key = await verifier.verify(request, signature, signingName);
          context = {
            accountId: key.accountId ?? this.options.accountId,
            region: signature.scopeRegion || this.options.region,
          };
        } catch (error) {
          return fail(error);
        }
        return this.run(service, route, restRequest(params), context, finish, fail);
      })();
    }
    let region = this.options.region;
    try {
      if (signingName !== undefined) region = signingRegion(request) || region;
    } catch (error) {
      return fail(error);
    }
    return this.run(
      service,
      route,
      restRequest(params),
      { accountId: this.options.accountId, region },
      finish,
      fail,
    );
  }

  private run(
    service: RestService,
    route: RestRoute,
    request: RestRequest,
    context: RequestContext,
    finish: (answer: RestAnswer) => WireResponse,
    fail: (error: unknown) => WireResponse,
  ): WireResponse | Promise<WireResponse> {
    const target = `${service.name}.${route.operation}`;
    const settle = () => this.options.afterCall?.(target, NO_INPUT, context);
    let answer: RestAnswer | Promise<RestAnswer>;
    try {
      answer = route.handle(request, context);
    } catch (error) {
      const wait = settle();
      return wait === undefined ? fail(error) : wait.then(() => fail(error), fail);
    }
    if (!(answer instanceof Promise)) {
      const wait = settle();
      const ready = answer;
      return wait === undefined ? finish(ready) : wait.then(() => finish(ready), fail);
    }
    return answer
      .then(
        async (resolved) => {
          await settle();
          return finish(resolved);
        },
        async (error: unknown) => {
          await settle();
          return fail(error);
        },
      )
      .catch(fail);
  }
}

function toWire(answer: RestAnswer, requestId: string, cors: string | undefined): WireResponse {
  if (answer.stream !== undefined) {
    // A streamed body has no length: it ends when the stream does.
    const headers = ['x-amzn-RequestId', answer.requestId ?? requestId];
    headers.push('Content-Type', answer.contentType ?? PLAIN_JSON, ...(answer.headers ?? []));
    if (cors !== undefined) allowOrigin(headers, cors);
    return { statusCode: answer.status, headers, body: Buffer.alloc(0), stream: answer.stream };
  }
  const body =
    answer.body === undefined
      ? Buffer.alloc(0)
      : Buffer.isBuffer(answer.body)
        ? answer.body
        : Buffer.from(JSON.stringify(answer.body));
  const headers = ['x-amzn-RequestId', answer.requestId ?? requestId];
  if (answer.body !== undefined) headers.push('Content-Type', answer.contentType ?? PLAIN_JSON);
  headers.push('Content-Length', String(body.length));
  if (answer.headers !== undefined) headers.push(...answer.headers);
  if (cors !== undefined) allowOrigin(headers, cors);
  return { statusCode: answer.status, headers, body };
}
