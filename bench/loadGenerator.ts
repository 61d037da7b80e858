/**
 * A lean closed-loop HTTP/1.1 load generator on raw `net` sockets: each connection sends one
 * request, waits for the whole response, and sends the next. Requests are prebuilt buffers whose
 * variable digits are patched in place, responses are framed by Content-Length, so the client
 * spends a few microseconds per request and the server under test stays the bottleneck.
 */
import { connect, type Socket } from 'node:net';

/** A request template: the bytes, and where to write the per-request number. */
export interface RequestTemplate {
  readonly bytes: Buffer;
  /** Offsets of fixed-width decimal fields, with their widths. */
  readonly fields: readonly { readonly offset: number; readonly width: number }[];
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

/** One keep-alive connection answering `send` with the response status. */
class Connection {
  private pending: Buffer | undefined;
  private onResponse: ((status: number) => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  static open(port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  send(bytes: Buffer, onResponse: (status: number) => void): void {
    this.onResponse = onResponse;
    this.socket.write(bytes);
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    const data = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    const headerEnd = data.indexOf(HEADER_END);
    if (headerEnd === -1) {
      this.pending = data;
      return;
    }
    const head = data.toString('latin1', 0, headerEnd);
    const length = CONTENT_LENGTH.exec(head);
    if (length === null) throw new Error(`response without Content-Length: ${head}`);
    const total = headerEnd + 4 + Number(length[1]);
    if (data.length < total) {
      this.pending = data;
      return;
    }
    if (data.length > total) throw new Error('unexpected bytes after a response (no pipelining here)');
    this.pending = undefined;
    const status = Number(head.slice(9, 12));
    const callback = this.onResponse!;
    this.onResponse = undefined;
    callback(status);
  }
}

/** Writes `value` as zero-padded decimal into each field of the template. */
function patch(template: RequestTemplate, values: readonly number[]): void {
  template.fields.forEach((field, index) => {
    let value = values[index] ?? 0;
    for (let position = field.offset + field.width - 1; position >= field.offset; position--) {
      template.bytes[position] = 48 + (value % 10);
      value = Math.floor(value / 10);
    }
  });
}

export interface LoadOptions {
  readonly port: number;
  readonly concurrency: number;
  /** Builds a connection's template (each connection patches its own copy). */
  readonly template: () => RequestTemplate;
  /** The field values of request number `n` (numbered across all connections). */
  readonly values: (n: number) => readonly number[];
  readonly warmupMs: number;
  readonly durationMs: number;
  /** When given, each measured response's latency (ms, send → whole response) is pushed here. */
  readonly latencies?: number[];
}

export interface LoadResult {
  readonly opsPerSecond: number;
  readonly requests: number;
  /** Responses whose status was not 200. */
  readonly failures: number;
}

/** Runs a closed loop for warm-up + duration; counts the responses inside the measured window. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const startAt = performance.now() + options.warmupMs;
  const endAt = startAt + options.durationMs;
  let counted = 0;
  let failures = 0;
  const latencies = options.latencies;
  await drive(options, (status, sentAt) => {
    const now = performance.now();
    if (now >= startAt && now < endAt) {
      counted++;
      if (status !== 200) failures++;
      latencies?.push(now - sentAt);
    }
    return now < endAt;
  });
  return { opsPerSecond: counted / (options.durationMs / 1000), requests: counted, failures };
}

/** Sends exactly `count` requests (setup and preloading); resolves with the failures. */
export async function sendCount(
  options: Omit<LoadOptions, 'warmupMs' | 'durationMs'> & { readonly count: number },
): Promise<number> {
  let sent = options.concurrency;
  let failures = 0;
  await drive({ ...options, concurrency: Math.min(options.concurrency, options.count) }, (status) => {
    if (status !== 200) failures++;
    return sent++ < options.count;
  });
  return failures;
}

/**
 * Each connection sends, waits for the answer, and sends again while `onResponse` (given the
 * status and the `performance.now()` the request was sent at) says so.
 */
async function drive(
  options: Pick<LoadOptions, 'port' | 'concurrency' | 'template' | 'values'>,
  onResponse: (status: number, sentAt: number) => boolean,
): Promise<void> {
  const connections = await Promise.all(
    Array.from({ length: options.concurrency }, () => Connection.open(options.port)),
  );
  let sequence = 0;
  await Promise.all(
    connections.map(
      (connection) =>
        new Promise<void>((resolve) => {
          const template = options.template();
          const next = () => {
            patch(template, options.values(sequence++));
            const sentAt = performance.now();
            connection.send(template.bytes, (status) => {
              if (onResponse(status, sentAt)) next();
              else resolve();
            });
          };
          next();
        }),
    ),
  );
  for (const connection of connections) connection.close();
}

/**
 * An SDK-like JSON 1.0 request (the headers an AWS SDK sends, a well-formed but unchecked
 * signature) whose body holds `#` runs: each run becomes a patchable decimal field.
 */
export function jsonRequest(port: number, operation: string, bodyPattern: string): RequestTemplate {
  const body = Buffer.from(bodyPattern.replace(/#+/g, (run) => '0'.repeat(run.length)));
  const head =
    'POST / HTTP/1.1\r\n' +
    `Host: 127.0.0.1:${port}\r\n` +
    'Content-Type: application/x-amz-json-1.0\r\n' +
    `X-Amz-Target: DynamoDB_20120810.${operation}\r\n` +
    'User-Agent: aws-sdk-js/3.1162.0 ua/2.1 os/linux lang/js md/nodejs#20 api/dynamodb#3.1162.0\r\n' +
    'amz-sdk-invocation-id: 00000000-0000-4000-8000-000000000000\r\n' +
    'amz-sdk-request: attempt=1; max=3\r\n' +
    'X-Amz-Date: 20260101T000000Z\r\n' +
    'Authorization: AWS4-HMAC-SHA256 Credential=AKIDBENCH/20260101/us-east-1/dynamodb/aws4_request, ' +
    'SignedHeaders=content-type;host;x-amz-date;x-amz-target, ' +
    `Signature=${'0'.repeat(64)}\r\n` +
    `Content-Length: ${body.length}\r\n` +
    '\r\n';
  const headBytes = Buffer.from(head);
  const fields: { offset: number; width: number }[] = [];
  for (const match of bodyPattern.matchAll(/#+/g)) {
    fields.push({
      offset: headBytes.length + Buffer.byteLength(bodyPattern.slice(0, match.index)),
      width: match[0].length,
    });
  }
  return { bytes: Buffer.concat([headBytes, body]), fields };
}
