/**
 * The transport's floor the HTTP benches compare eddy with: a `node:http` server that reads the
 * body, parses its JSON and answers a fixed body with the headers eddy sends (request id, CRC-32,
 * content type and length). Nothing else.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

export interface BareOptions {
  /**
   * Write the answers of one event-loop turn together, as eddy's server does
   * (infra/host/server.ts `write`), instead of each as its request completes.
   */
  readonly perTurn?: boolean;
}

/** Starts the bare server on a free loopback port; resolves with the port. */
export function startBareServer(body: Buffer, options: BareOptions = {}): Promise<number> {
  const headers = [
    'x-amzn-RequestId',
    'BARE0000000000000000000000000000000000000000000000000',
    'x-amz-crc32',
    String(crc32(body)),
    'Content-Type',
    'application/x-amz-json-1.0',
    'Content-Length',
    String(body.length),
  ];
  const answer = (response: ServerResponse) => {
    response.writeHead(200, headers);
    response.end(body);
  };
  let pending: ServerResponse[] = [];
  const flush = () => {
    const answers = pending;
    pending = [];
    for (const response of answers) answer(response);
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!options.perTurn) answer(response);
      else {
        if (pending.length === 0) setImmediate(flush);
        pending.push(response);
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}
