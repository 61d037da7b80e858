import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine.js';
import { createLocalClient } from '../../infra/host/localClient.js';
import type { EddyServer } from '../../infra/host/server.js';
import { addTable } from '../helpers/tables.js';
import { echoService, send, startServer } from './rawHttp.js';

// docs/dynamodb.md §1.2.6 with configured credentials: signatures are verified with @smithy/signature-v4.
const KEY = { accessKeyId: 'AKIDEDDY', secretAccessKey: 'correct-secret', accountId: '123456789012' };
const GET_MISSING = new GetItemCommand({ TableName: 'Missing', Key: { id: { S: '1' } } });

let engine: Engine;
let server: EddyServer;
let url: string;
beforeAll(async () => {
  // The key's account owns the table: tables live per account and region.
  engine = new Engine({ accountId: KEY.accountId });
  addTable(engine, 'Orders', ['id', 'S']);
  ({ server, url } = await startServer({ engine, accessKeys: [KEY] }));
});
afterAll(() => server.close());

const clients = [
  {
    name: 'http',
    create: (credentials: AwsCredentialIdentity, region = 'us-east-1') =>
      new DynamoDBClient({ endpoint: url, region, credentials, maxAttempts: 1 }),
  },
  {
    name: 'in-process',
    create: (credentials: AwsCredentialIdentity, region = 'us-east-1') =>
      createLocalClient({ pipeline: server.pipeline, region, credentials, client: { maxAttempts: 1 } }),
  },
];

describe.each(clients)('SigV4 verification over $name', ({ create }) => {
  it('lets a correctly signed request through to the engine', async () => {
    const client = create(KEY);
    const error = await client.send(GET_MISSING).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ResourceNotFoundException', $metadata: { httpStatusCode: 400 } });
    client.destroy();
  });

  it('answers UnrecognizedClientException for an unknown key id', async () => {
    const client = create({ accessKeyId: 'AKIDOTHER', secretAccessKey: 'correct-secret' });
    const error = await client.send(GET_MISSING).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
      $metadata: { httpStatusCode: 400 },
    });
    client.destroy();
  });

  it('answers InvalidSignatureException for a wrong secret, quoting the canonical request', async () => {
    const client = create({ accessKeyId: KEY.accessKeyId, secretAccessKey: 'wrong-secret' });
    const error = (await client.send(GET_MISSING).catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ name: 'InvalidSignatureException', $metadata: { httpStatusCode: 400 } });
    expect(error.message).toMatch(
      /^The request signature we calculated does not match the signature you provided\. Check your AWS Secret Access Key and signing method\. Consult the service documentation for details\.\n\nThe Canonical String for this request should have been\n'POST\n\/\n/,
    );
    expect(error.message).toContain('The String-to-Sign should have been');
    client.destroy();
  });

  it('puts tables per region: the signing region picks them', async () => {
    const home = create(KEY, 'us-east-1');
    const away = create(KEY, 'eu-west-1');
    const key = { TableName: 'Orders', Key: { id: { S: 'none' } } };
    await expect(home.send(new GetItemCommand(key))).resolves.toMatchObject({
      $metadata: { httpStatusCode: 200 },
    });
    await expect(away.send(new GetItemCommand(key))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    home.destroy();
    away.destroy();
  });
});

describe('SigV4 verification, raw requests', () => {
  const signer = (secretAccessKey = KEY.secretAccessKey) =>
    new SignatureV4({
      credentials: { accessKeyId: KEY.accessKeyId, secretAccessKey },
      region: 'sa-east-1',
      service: 'dynamodb',
      sha256: Sha256,
    });

  async function signedEcho(options: { presign?: boolean; secret?: string; tamper?: boolean }) {
    const target = new URL(url);
    const body = '{"hello":"world"}';
    const request = {
      method: 'POST',
      protocol: 'http:',
      hostname: target.hostname,
      port: Number(target.port),
      path: '/',
      query: {},
      headers: {
        host: target.host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'EddyTest_20990101.Echo',
      },
      body,
    };
    const signed = options.presign
      ? // The target must stay a header: DynamoDB reads it from there.
        await signer(options.secret).presign(request, { unhoistableHeaders: new Set(['x-amz-target']) })
      : await signer(options.secret).sign(request);
    const query = new URLSearchParams(signed.query as Record<string, string>).toString();
    const headers = { ...signed.headers } as Record<string, string>;
    delete headers.host;
    return send(url, {
      path: query === '' ? '/' : `/?${query}`,
      headers,
      body: options.tamper ? '{"hello":"there"}' : body,
    });
  }

  it("passes the key's account id and the scope's region to the service", async () => {
    const response = await signedEcho({});
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ context: { accountId: '123456789012', region: 'sa-east-1' } });
  });

  it('verifies presigned (query-string) requests', async () => {
    const presigned = await signedEcho({ presign: true });
    expect(presigned.json).toMatchObject({ context: { region: 'sa-east-1' } });
    const wrong = await signedEcho({ presign: true, secret: 'nope' });
    expect(wrong.json).toMatchObject({ __type: 'com.amazon.coral.service#InvalidSignatureException' });
  });

  it('refuses a body changed after signing', async () => {
    const response = await signedEcho({ tamper: true });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ __type: 'com.amazon.coral.service#InvalidSignatureException' });
  });

  it('checks the credential scope and that Host is signed', async () => {
    // Signed now: the signing time must be within 15 minutes of the clock.
    const date = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
    const day = date.slice(0, 8);
    const base = {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': 'EddyTest_20990101.Echo',
      'X-Amz-Date': date,
    };
    const scope = await send(url, {
      headers: {
        ...base,
        Authorization: `AWS4-HMAC-SHA256 Credential=${KEY.accessKeyId}/20250101/<b>x/s3/aws4, SignedHeaders=host, Signature=ab`,
      },
      body: '{}',
    });
    // Every scope problem at once, in the service's order (dynalite's recorded response).
    expect(scope.json).toEqual({
      __type: 'com.amazon.coral.service#InvalidSignatureException',
      message:
        "Credential should be scoped to a valid region, not '<b>x'. " +
        "Credential should be scoped to correct service: 'dynamodb'. Credential should be scoped with a valid " +
        "terminator: 'aws4_request', not 'aws4'. Date in Credential scope does not match YYYYMMDD from ISO-8601 " +
        `version of date from HTTP: '20250101' != '${day}', from '${date}'.`,
    });
    const hostless = await send(url, {
      headers: {
        ...base,
        Authorization: `AWS4-HMAC-SHA256 Credential=${KEY.accessKeyId}/${day}/us-east-1/dynamodb/aws4_request, SignedHeaders=x-amz-date, Signature=ab`,
      },
      body: '{}',
    });
    expect(hostless.json?.message).toBe("'Host' must be a 'SignedHeader' in the AWS Authorization.");
  });

  it('leaves verification off by default: any well-formed credentials pass', async () => {
    const open = await startServer({}, echoService());
    try {
      const response = await send(open.url, {
        headers: {
          'Content-Type': 'application/x-amz-json-1.0',
          'X-Amz-Target': 'EddyTest_20990101.Echo',
          'X-Amz-Date': '20260101T000000Z',
          Authorization:
            'AWS4-HMAC-SHA256 Credential=anyone/20260101/us-west-2/dynamodb/aws4_request, SignedHeaders=host, Signature=zz',
        },
        body: '{}',
      });
      expect(response.json).toMatchObject({ context: { region: 'us-west-2', accountId: '000000000000' } });
    } finally {
      await open.server.close();
    }
  });
});
