import { createHash } from 'node:crypto';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EddyServer } from '../../infra/host/server.js';
import { type RawResponse, send, startServer } from './rawHttp.js';

// Issue 16 item 6: with verification on, the signing time, the payload and the SignedHeaders
// list are checked as the service checks them; item 7: the scope's region must be a region.
const KEY = { accessKeyId: 'AKIDEDDY', secretAccessKey: 'correct-secret' };
/** The pinned clock of `pinned`: 2026-01-01 00:20:00 UTC. */
const NOW = Date.UTC(2026, 0, 1, 0, 20);
const ECHO = 'EddyTest_20990101.Echo';
const MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS ' +
  'Secret Access Key and signing method. Consult the service documentation for details.';

let pinned: { server: EddyServer; url: string };
let live: { server: EddyServer; url: string };
beforeAll(async () => {
  pinned = await startServer({ accessKeys: [KEY], wallClock: () => NOW });
  live = await startServer({ accessKeys: [KEY] });
});
afterAll(async () => {
  await pinned.server.close();
  await live.server.close();
});

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

interface Signed {
  readonly at?: number;
  readonly region?: string;
  readonly headers?: Record<string, string>;
  /** Rewrites the Authorization header after signing. */
  readonly authorization?: (value: string) => string;
  readonly body?: string;
}

/** A request signed by the SDKs' signer, sent raw to `url`. */
async function signedEcho(url: string, options: Signed = {}): Promise<RawResponse> {
  const target = new URL(url);
  const body = options.body ?? '{"hello":"world"}';
  const signer = new SignatureV4({
    credentials: KEY,
    region: options.region ?? 'us-east-1',
    service: 'dynamodb',
    sha256: Sha256,
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: target.hostname,
      port: Number(target.port),
      path: '/',
      query: {},
      headers: {
        host: target.host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': ECHO,
        ...options.headers,
      },
      body,
    },
    { signingDate: new Date(options.at ?? Date.now()) },
  );
  const headers = { ...signed.headers } as Record<string, string>;
  delete headers.host;
  if (options.authorization) headers.authorization = options.authorization(headers.authorization!);
  return send(url, { headers, body });
}

describe('signing time (15 minutes either way)', () => {
  it('answers Signature expired, as AWS words it, 20 minutes late', async () => {
    const response = await signedEcho(pinned.url, { at: Date.UTC(2026, 0, 1, 0, 0) });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      __type: 'com.amazon.coral.service#InvalidSignatureException',
      message:
        'Signature expired: 20260101T000000Z is now earlier than 20260101T000500Z (20260101T002000Z - 15 min.)',
    });
  });

  it('answers Signature not yet current 16 minutes early', async () => {
    const response = await signedEcho(pinned.url, { at: Date.UTC(2026, 0, 1, 0, 36) });
    expect(response.json).toEqual({
      __type: 'com.amazon.coral.service#InvalidSignatureException',
      message:
        'Signature not yet current: 20260101T003600Z is still later than 20260101T003500Z (20260101T002000Z + 15 min.)',
    });
  });

  it('accepts signatures 15 minutes old or 15 minutes ahead', async () => {
    for (const at of [NOW - 15 * 60_000, NOW + 15 * 60_000]) {
      expect((await signedEcho(pinned.url, { at })).status).toBe(200);
    }
  });

  it('lets an SDK whose clock is 20 minutes slow correct itself from the Date header', async () => {
    const slow = new DynamoDBClient({
      endpoint: live.url,
      region: 'us-east-1',
      credentials: KEY,
      systemClockOffset: -20 * 60_000,
      maxAttempts: 1,
    });
    const error = await slow.send(new ListTablesCommand({})).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'InvalidSignatureException' });
    expect((error as Error).message).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than /);
    // With retries (the SDK default), the offset the SDK learns from the answer fixes it.
    const retrying = new DynamoDBClient({
      endpoint: live.url,
      region: 'us-east-1',
      credentials: KEY,
      systemClockOffset: -20 * 60_000,
    });
    await expect(retrying.send(new ListTablesCommand({}))).resolves.toMatchObject({ TableNames: [] });
    slow.destroy();
    retrying.destroy();
  });
});

describe('payload and signed headers', () => {
  it('signs the body itself: UNSIGNED-PAYLOAD answers the signature mismatch', async () => {
    const response = await signedEcho(live.url, { headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } });
    expect(response.status).toBe(400);
    const message = String(response.json?.message);
    expect(response.json?.__type).toBe('com.amazon.coral.service#InvalidSignatureException');
    expect(message.startsWith(MISMATCH)).toBe(true);
    // The canonical request the service expected ends with the body's own SHA-256.
    expect(message).toContain(`\n${sha256('{"hello":"world"}')}'\n\nThe String-to-Sign`);
  });

  it('accepts a declared x-amz-content-sha256 that is the body’s hash', async () => {
    const body = '{"hello":"world"}';
    const response = await signedEcho(live.url, { body, headers: { 'x-amz-content-sha256': sha256(body) } });
    expect(response.status).toBe(200);
  });

  it('refuses a SignedHeaders list that names a header twice', async () => {
    // The signer dedupes, so the signature is right for the list without the repeat.
    const response = await signedEcho(live.url, {
      authorization: (value) => value.replace('SignedHeaders=', 'SignedHeaders=host;'),
    });
    expect(response.json).toEqual({
      __type: 'com.amazon.coral.service#InvalidSignatureException',
      message: MISMATCH,
    });
    expect((await signedEcho(live.url)).status).toBe(200);
  });
});

describe('the region of the credential scope', () => {
  it.each(['<script>x', '', 'local', 'US-EAST-1'])('refuses %j with AWS’s message', async (region) => {
    const response = await signedEcho(live.url, { region });
    expect(response.json).toEqual({
      __type: 'com.amazon.coral.service#InvalidSignatureException',
      message: `Credential should be scoped to a valid region, not '${region}'.`,
    });
  });

  it('refuses it with verification off too, and accepts every partition’s names', async () => {
    const open = await startServer();
    try {
      const bad = await signedEcho(open.url, { region: '<script>x' });
      expect(bad.json).toEqual({
        __type: 'com.amazon.coral.service#InvalidSignatureException',
        message: "Credential should be scoped to a valid region, not '<script>x'.",
      });
      for (const region of ['us-east-1', 'ap-southeast-7', 'cn-north-1', 'us-gov-west-1', 'eusc-de-east-1']) {
        const good = await signedEcho(open.url, { region });
        expect(good.json).toMatchObject({ context: { region } });
      }
    } finally {
      await open.server.close();
    }
  });
});
