import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { InternalServerError } from '../../core/errors/index.js';
import { BodyIntake, DEFAULT_MAX_BUFFERED_BODY_BYTES } from './bodyIntake.js';
import { ListenError, PortInUseError } from './errors.js';
import { type AllowedHosts, HostCheck, isLoopbackAddress } from './hostCheck.js';
import { type PipelineOptions, RequestPipeline } from './pipeline.js';
import { forbiddenHost } from './responses.js';
import type { RestService } from './restService.js';
import type { ProtocolService } from './services.js';
import {
  type HeaderRecord,
  headerValue,
  jsonResponse,
  newRequestId,
  PLAIN_JSON,
  type ResponseStreamer,
  type WireRequest,
  type WireResponse,
} from './wire.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8000;
export { DEFAULT_MAX_BUFFERED_BODY_BYTES };
/**
 * Time to receive a whole request, headers and body; then node:http answers 408 and closes the
 * connection. 30 s lets 16 MiB arrive at 4.5 Mbit/s; node's own default is 300 s.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ServerOptions extends PipelineOptions {
  /** Interface to bind (default `127.0.0.1`: reachable from this machine only). */
  readonly host?: string;
  /** Port to bind (default 8000; 0 picks a free one). */
  readonly port?: number;
  /** How long `close()` waits for in-flight requests before cutting connections (default 10 s). */
  readonly shutdownTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open (default 65 s). Longer than the SDKs' idle
   * reuse window, so a client never reuses a socket the server is closing.
   */
  readonly keepAliveTimeoutMs?: number;
  /** Bytes of request bodies buffered at once, all requests together (default 64 MiB). */
  readonly maxBufferedBodyBytes?: number;
  /** Time to receive a whole request before answering 408 (default 30 s). */
  readonly requestTimeoutMs?: number;
  /**
   * Host names served besides this machine's own while bound to loopback (`*`: any). A request
   * naming another host is refused (403): that is how DNS rebinding reaches a local server.
   */
  readonly allowedHosts?: AllowedHosts;
}

/** Where the server listens. */
export interface BoundAddress {
  readonly host: string;
  readonly port: number;
  /** `http://127.0.0.1:8000`: the `--endpoint-url` / SDK `endpoint` to use. */
  readonly url: string;
}

/**
 * The DynamoDB endpoint over HTTP: a `node:http` server in front of the shared
 * `RequestPipeline`. Per request it only reads the body (refusing oversized ones while they
 * stream in), runs the pipeline and writes the answer; connections stay alive between requests.
 *
 * @example
 * ```ts
 * const server = new EddyServer({ engine: new Engine(), port: 0 });
 * const { url } = await server.listen();
 * const client = new DynamoDBClient({ endpoint: url, region: 'us-east-1',
 *   credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
 * // ...
 * await server.close();
 * ```
 */
export class EddyServer {
  readonly pipeline: RequestPipeline;
  readonly http: Server;
  private readonly host: string;
  private readonly port: number;
  private readonly shutdownTimeoutMs: number;
  private readonly intake: BodyIntake;
  private readonly allowedHosts: HostCheck;
  /** The Host check, while bound to a loopback address. */
  private hostCheck: HostCheck | undefined;
  private closing: Promise<void> | undefined;
  private bound: BoundAddress | undefined;
  /** Answers waiting for the end of this poll phase, as `[response, wire, response, wire, ...]`. */
  private pending: (ServerResponse | WireResponse)[] = [];
  private spare: (ServerResponse | WireResponse)[] = [];
  private readonly flushPending = () => this.flush();
  /** Streamed responses still open (server-sent events): `close()` ends them. */
  private readonly streams = new Set<ServerResponse>();

  constructor(options: ServerOptions) {
    this.pipeline = new RequestPipeline(options);
    this.host = options.host ?? DEFAULT_HOST;
    this.port = options.port ?? DEFAULT_PORT;
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
    this.intake = new BodyIntake({
      maxBodyBytes: this.pipeline.maxBodyBytes,
      maxBufferedBodyBytes: options.maxBufferedBodyBytes ?? DEFAULT_MAX_BUFFERED_BODY_BYTES,
      write: (response, answer) => this.writeNow(response, answer),
    });
    this.allowedHosts = new HostCheck(options.allowedHosts);
    const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.http = createServer({
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 65_000,
      requestTimeout,
      // node:http looks for timed-out requests this often (default 30 s, which would let a slow
      // body live up to twice the timeout).
      connectionsCheckingInterval: Math.min(1_000, requestTimeout),
    });
    this.http.on('request', (request: IncomingMessage, response: ServerResponse) =>
      this.onRequest(request, response),
    );
    // `Expect: 100-continue`: refuse a body that would not be read before the client sends it.
    this.http.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      if (this.foreignHost(request, response) || !this.intake.admits(request, response)) return;
      response.writeContinue();
      this.onRequest(request, response);
    });
  }

  /** Adds an API under another `X-Amz-Target` prefix (see `ProtocolService`). */
  registerService(service: ProtocolService): void {
    this.pipeline.registerService(service);
  }

  /** Adds a REST API chosen by method and path (see `RestService`). */
  registerRestService(service: RestService): void {
    this.pipeline.registerRestService(service);
  }

  /** The bound address once `listen()` resolved. */
  get address(): BoundAddress | undefined {
    return this.bound;
  }

  /**
   * Starts listening. Resolves with the bound address (the real port when 0 was asked).
   * @throws PortInUseError when the port is taken; ListenError for other bind failures.
   */
  listen(port = this.port, host = this.host): Promise<BoundAddress> {
    return new Promise((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        this.http.off('listening', onListening);
        reject(
          error.code === 'EADDRINUSE'
            ? new PortInUseError(host, port, { cause: error })
            : new ListenError(host, port, { cause: error }),
        );
      };
      const onListening = () => {
        this.http.off('error', onError);
        const info = this.http.address() as AddressInfo;
        const urlHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        this.bound = { host: info.address, port: info.port, url: `http://${urlHost}:${info.port}` };
        this.hostCheck = isLoopbackAddress(info.address) ? this.allowedHosts : undefined;
        resolve(this.bound);
      };
      this.http.once('error', onError);
      this.http.once('listening', onListening);
      this.http.listen(port, host);
    });
  }

  /**
   * Graceful shutdown: stops accepting connections, closes idle keep-alive sockets, lets
   * in-flight requests finish (their responses say `Connection: close`), then resolves. After
   * `shutdownTimeoutMs` the remaining connections are cut.
   */
  close(): Promise<void> {
    if (this.closing !== undefined) return this.closing;
    this.closing = new Promise<void>((resolve) => {
      if (!this.http.listening) {
        resolve();
        return;
      }
      const timer = setTimeout(() => this.http.closeAllConnections(), this.shutdownTimeoutMs);
      timer.unref();
      this.http.close(() => {
        clearTimeout(timer);
        resolve();
      });
      // A live feed never finishes on its own: end it, or close() would wait for the timeout.
      for (const response of this.streams) response.end();
      // Sockets between requests close now; busy ones close after their response (see `write`).
      this.http.closeIdleConnections();
    });
    return this.closing;
  }

  /** Refuses (403) a request whose Host is not this machine while bound to loopback. */
  private foreignHost(request: IncomingMessage, response: ServerResponse): boolean {
    const host = request.headers.host;
    if (this.hostCheck === undefined || this.hostCheck.allows(host)) return false;
    this.intake.refuse(request, response, forbiddenHost(host ?? '', newRequestId()));
    return true;
  }

  private onRequest(request: IncomingMessage, response: ServerResponse): void {
    if (this.foreignHost(request, response)) return;
    this.intake.receive(request, response, (body) => this.respond(request, response, body));
  }

  private respond(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
    const wireRequest = new IncomingWireRequest(request, body);
    let result: WireResponse | Promise<WireResponse>;
    try {
      result = this.pipeline.handle(wireRequest);
    } catch (error) {
      result = this.internalError(error);
    }
    if (result instanceof Promise) {
      // An answer that waited (for the data directory's log write, say) is written as soon as it
      // is ready: the wait already gathered it with the others released by the same log write, in
      // one burst of microtasks before the event loop moves on. Queued for the next turn instead,
      // it would wait one more loop iteration for nothing (bench/persistence.ts, PutItem at 16
      // clients with --durability everysec: 0.68× → 0.89× of in memory).
      result.then(
        (resolved) => this.writeSafely(response, resolved),
        (error: unknown) => this.writeSafely(response, this.internalError(error)),
      );
    } else {
      this.write(response, result);
    }
  }

  /**
   * Queues an answer; `flush` writes every queued answer once the event loop has run the I/O
   * callbacks of this turn (`setImmediate`), so the answers to requests that arrived together
   * leave together (the way Redis writes its replies before going back to `epoll_wait`).
   *
   * Why: on loopback, a write that wakes a sleeping client costs the writer far more than the
   * bytes (the wake-up is charged to the `writev`). Written as each request completes, a busy
   * server wakes its clients once per answer; written per turn, once per batch. Measured with
   * `bench/http.ts`'s client at concurrency 16, on a bare `node:http` server answering a fixed
   * body: 25.4 → 20.1 µs CPU per request and 22.5k → 29.9k requests/s; with 10 µs of work per
   * request: 37.5 → 31.3 µs and 16.8k → 22.1k/s. A lone request waits for nothing: its turn
   * ends as soon as it is answered (concurrency 1 is unchanged).
   */
  private write(response: ServerResponse, wire: WireResponse): void {
    const pending = this.pending;
    if (pending.length === 0) setImmediate(this.flushPending);
    pending.push(response, wire);
  }

  private flush(): void {
    const pending = this.pending;
    // Answers queued while flushing (none today: writing is synchronous) go to the next turn.
    this.pending = this.spare;
    for (let i = 0; i < pending.length; i += 2)
      this.writeSafely(pending[i] as ServerResponse, pending[i + 1] as WireResponse);
    pending.length = 0;
    this.spare = pending;
  }

  private writeSafely(response: ServerResponse, wire: WireResponse): void {
    try {
      this.writeNow(response, wire);
    } catch (error) {
      // One answer node:http refuses must not hold back the others of a batch.
      this.pipeline.logger.error({ err: error }, 'could not write a response');
      response.destroy();
    }
  }

  private writeNow(response: ServerResponse, wire: WireResponse): void {
    if (response.destroyed) return;
    const headers = this.closing === undefined ? wire.headers : [...wire.headers, 'Connection', 'close'];
    response.writeHead(wire.statusCode, STATUS_CODES[wire.statusCode], headers);
    if (wire.stream !== undefined && this.closing === undefined) this.openStream(response, wire.stream);
    else response.end(wire.body);
  }

  /** Hands a streamed response's open body to its writer (`WireResponse.stream`). */
  private openStream(response: ServerResponse, streamer: ResponseStreamer): void {
    this.streams.add(response);
    response.once('close', () => this.streams.delete(response));
    response.flushHeaders();
    streamer({
      write: (chunk) => !response.writableEnded && response.write(chunk),
      get ready() {
        return !response.writableEnded && !response.writableNeedDrain;
      },
      end: () => response.end(),
      onClose: (listener) => {
        response.once('close', listener);
      },
    });
  }

  /** The pipeline never throws; this is the last guard so a bug can never crash the server. */
  private internalError(error: unknown): WireResponse {
    this.pipeline.logger.error({ err: error }, 'internal error outside the pipeline');
    const wireError = new InternalServerError('Internal server error');
    const body = Buffer.from(JSON.stringify(wireError.toWire()));
    return jsonResponse(500, body, PLAIN_JSON, newRequestId(), undefined);
  }
}

/**
 * A request read from a socket. node:http has already built `request.headers` (it reads `Expect`
 * and `Connection` from it), so a header lookup is a property read.
 */
class IncomingWireRequest implements WireRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderRecord;

  constructor(
    request: IncomingMessage,
    readonly body: Buffer,
  ) {
    this.method = request.method ?? 'GET';
    this.url = request.url ?? '/';
    this.headers = request.headers;
  }

  header(name: string): string | undefined {
    return headerValue(this.headers, name);
  }
}
