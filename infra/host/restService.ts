import type { RequestContext } from '../../core/operation.js';
import type { ResponseStreamer } from './wire.js';

/**
 * A REST API the host answers beside the JSON 1.0 ones: an operation is chosen by method and
 * path (`GET /2015-03-31/functions/{FunctionName}`), not by `X-Amz-Target`. The Lambda API is
 * one (`infra/lambda-api`); the pipeline only routes, checks the caller and writes answers, and
 * knows nothing of what a service does.
 *
 * @example
 * ```ts
 * const hello: RestService = {
 *   name: 'Hello',
 *   signingName: 'hello',
 *   owns: (path) => path.startsWith('/hello/'),
 *   routes: [{ method: 'GET', path: '/hello/{Name}', operation: 'SayHello',
 *     handle: (request) => ({ status: 200, body: { greeting: `hello ${request.params.Name}` } }) }],
 *   unknownRoute: () => ({ status: 404, body: { message: 'Unknown operation' } }),
 *   errorAnswer: () => undefined,
 *   internalError: () => ({ status: 500, body: { message: 'Internal error' } }),
 * };
 * pipeline.registerRestService(hello);
 * ```
 */
export interface RestService {
  /** Names the service in request logs (`Lambda.Invoke`). */
  readonly name: string;
  /**
   * The SigV4 credential scope's service (`lambda`), checked when signatures are verified;
   * undefined: the service is open, like the health check (eddy's own read endpoints).
   */
  readonly signingName: string | undefined;
  /** Whether a path belongs to this service (then an unmatched one is its `unknownRoute`). */
  owns(path: string): boolean;
  readonly routes: readonly RestRoute[];
  /** The answer to a path the service owns that no route matches. */
  unknownRoute(request: RestRequest): RestAnswer;
  /** The answer to an error a route threw (or the host's signature check); undefined: a bug. */
  errorAnswer(error: unknown): RestAnswer | undefined;
  /** The answer to a bug (logged with its stack by the pipeline). */
  internalError(): RestAnswer;
  /** A fresh `x-amzn-RequestId` in the service's format (default: the host's). */
  newRequestId?(): string;
}

export interface RestRoute {
  readonly method: string;
  /** A path template: literal segments and `{Name}` segments, which become `params.Name`. */
  readonly path: string;
  /** The operation's name, for logs. */
  readonly operation: string;
  handle(request: RestRequest, context: RequestContext): RestAnswer | Promise<RestAnswer>;
}

/** One request as a route sees it. */
export interface RestRequest {
  readonly method: string;
  readonly path: string;
  /** The `{Name}` segments of the route, URL-decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: Buffer;
  readonly requestId: string;
  header(name: string): string | undefined;
}

/** What a route answers: a status, extra headers and a body (JSON when an object). */
export interface RestAnswer {
  readonly status: number;
  /** Extra headers as a flat `[name, value, ...]` list. */
  readonly headers?: readonly string[];
  /** An object is sent as JSON; a Buffer as it is; nothing sends an empty body. */
  readonly body?: Buffer | object;
  /** The body's media type (default `application/json`). */
  readonly contentType?: string;
  /** Overrides `x-amzn-RequestId` (e.g. an invocation answers with its own request id). */
  readonly requestId?: string;
  /** A body that goes on after the head (server-sent events); `body` is then not sent. */
  readonly stream?: ResponseStreamer;
}

interface CompiledRoute {
  readonly route: RestRoute;
  /** Literal segments as strings, parameters as `{ name }`. */
  readonly segments: readonly (string | { readonly name: string })[];
}

/**
 * Matches method and path against a service's route templates. Segments are compared as sent
 * (percent-encoded); parameters are decoded, so `arn%3Aaws%3Alambda...` reaches a route as an ARN.
 */
export class RestRouter {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly RestRoute[]) {
    this.compiled = routes.map((route) => ({
      route,
      segments: route.path
        .split('/')
        .slice(1)
        .map((segment) =>
          segment.startsWith('{') && segment.endsWith('}') ? { name: segment.slice(1, -1) } : segment,
        ),
    }));
  }

  /** The route and its decoded parameters, or undefined (no route, or a malformed escape). */
  match(method: string, path: string): { route: RestRoute; params: Record<string, string> } | undefined {
    const parts = path.split('/').slice(1);
    // A trailing slash names the same resource (`/2015-03-31/functions/`).
    if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
    for (const { route, segments } of this.compiled) {
      if (route.method !== method || segments.length !== parts.length) continue;
      const params: Record<string, string> = Object.create(null);
      let matched = true;
      for (let i = 0; i < segments.length && matched; i++) {
        const segment = segments[i]!;
        const part = parts[i]!;
        if (typeof segment === 'string') matched = segment === part;
        else if (part === '') matched = false;
        else {
          try {
            params[segment.name] = decodeURIComponent(part);
          } catch {
            return undefined;
          }
        }
      }
      if (matched) return { route, params };
    }
    return undefined;
  }
}
