import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBStreamsClient, ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, checkConfig, findConfigFile, loadConfig } from '../../infra/cli/loadConfig.js';
import { serve } from '../../infra/cli/serve.js';
import { send } from './rawHttp.js';

const directory = mkdtempSync(join(tmpdir(), 'eddy-config-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

const ORDERS = {
  TableName: 'Orders',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  BillingMode: 'PAY_PER_REQUEST',
};

async function configError(load: Promise<unknown>): Promise<ConfigError> {
  const error = await load.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${error}`);
  return error;
}

describe('loadConfig', () => {
  it('loads JSON, ES modules and TypeScript (default export, or a function returning the config)', async () => {
    const json = write('a.json', JSON.stringify({ server: { port: 1234 }, tables: [ORDERS] }));
    const mjs = write('b.mjs', `export default { server: { region: 'eu-west-1' } };`);
    const ts = write(
      'c.ts',
      `import type { EddyConfig } from '${join(process.cwd(), 'infra/config.ts')}';\n` +
        `const region: string = 'ap-south-1';\nexport default async (): Promise<EddyConfig> => ({ server: { region } });`,
    );
    expect(await loadConfig(json)).toEqual({ server: { port: 1234 }, tables: [ORDERS] });
    expect(await loadConfig(mjs)).toEqual({ server: { region: 'eu-west-1' } });
    expect(await loadConfig(ts)).toEqual({ server: { region: 'ap-south-1' } });
  });

  it('names the file and the reason for unreadable files', async () => {
    const missing = await configError(loadConfig(join(directory, 'nope.json')));
    expect(missing.message).toBe(`Bad config ${join(directory, 'nope.json')}: file not found`);
    const broken = await configError(loadConfig(write('broken.json', '{"server": ')));
    expect(broken.reason).toMatch(/^not valid JSON: /);
    const throwing = await configError(loadConfig(write('throws.mjs', 'throw new Error("boom");')));
    expect(throwing.reason).toBe('cannot be loaded: boom');
    const empty = await configError(loadConfig(write('empty.mjs', 'export const other = 1;')));
    expect(empty.reason).toContain('no default export');
    const yaml = await configError(loadConfig(write('x.yaml', 'a: 1')));
    expect(yaml.reason).toContain("unsupported file type '.yaml'");
  });

  it('finds eddy.config.* in a directory, TypeScript first', () => {
    const project = mkdtempSync(join(directory, 'project-'));
    expect(findConfigFile(project)).toBeUndefined();
    writeFileSync(join(project, 'eddy.config.json'), '{}');
    writeFileSync(join(project, 'eddy.config.ts'), 'export default {};');
    expect(findConfigFile(project)).toBe(join(project, 'eddy.config.ts'));
  });
});

describe('checkConfig', () => {
  it.each([
    [[], '', 'the config must be an object'],
    [
      { tabels: [] },
      'tabels',
      'unknown setting (known: server, tables, functions, ttl, globalIndexes, globalTables, streams, archive, destinationsDirectory, capacity, kinesis)',
    ],
    [{ server: { port: 70000 } }, 'server.port', 'must be an integer from 0 to 65535'],
    [{ server: { prot: 1 } }, 'server.prot', 'unknown setting'],
    [{ server: { accountId: '12' } }, 'server.accountId', 'must be 12 digits'],
    [{ server: { region: 'US East' } }, 'server.region', 'must be a region name such as us-east-1'],
    [{ server: { region: 'local' } }, 'server.region', 'must be a region name such as us-east-1'],
    [{ server: { cors: 'https://a.example' } }, 'server.cors', "must be '*' or a list of origins"],
    [{ server: { cors: ['a.example'] } }, 'server.cors', "Not an origin: 'a.example'"],
    [{ server: { allowedHosts: [''] } }, 'server.allowedHosts', "must be '*' or a list of host names"],
    [
      { server: { createDelay: 'soon' } },
      'server.createDelay',
      "must be milliseconds or a duration such as '2s'",
    ],
    [
      { server: { accessKeys: [{ accessKeyId: 'a' }] } },
      'server.accessKeys[0].secretAccessKey',
      'must be a non-empty string',
    ],
    [{ tables: {} }, 'tables', 'must be an array of CreateTable requests'],
    [{ tables: [ORDERS, { KeySchema: [] }] }, 'tables[1].TableName', 'must be a non-empty string'],
    [{ tables: [ORDERS, ORDERS] }, 'tables[1].TableName', "'Orders' is declared twice"],
    [
      { tables: [{ ...ORDERS, TimeToLiveSpecification: { AttributeName: 'ttl' } }] },
      'tables[0].TimeToLiveSpecification',
      'must be { AttributeName: string, Enabled: boolean }',
    ],
  ])('refuses %j at %j', (config, path, reason) => {
    let error: unknown;
    try {
      checkConfig(config, 'eddy.config.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).path).toBe(path);
    expect((error as ConfigError).reason).toContain(reason);
  });

  it('accepts functions with stream and schedule bindings', () => {
    const config = {
      tables: [ORDERS],
      functions: {
        onOrder: {
          handler: './onOrder.ts',
          timeout: 10,
          events: [{ stream: { table: 'Orders', BatchSize: 10 } }],
        },
        nightly: { handler: './nightly.ts', events: [{ schedule: { rate: 'rate(1 day)' } }] },
      },
    };
    expect(() => checkConfig(config, 'eddy.config.json')).not.toThrow();
  });

  it.each([
    [{ functions: { f: {} } }, 'functions.f.handler', 'must be the path of the handler module'],
    [{ functions: { f: { handler: 'x.ts', events: [{}] } } }, 'functions.f.events[0]', 'must be { stream'],
    [{ functions: { f: { handler: 'x.ts', memory: 128 } } }, 'functions.f.memory', 'unknown setting'],
    [{ functions: { f: { handler: 'x.ts', runtime: 3 } } }, 'functions.f.runtime', 'a Lambda runtime name'],
    [{ functions: { f: { handler: 'x.ts', build: 'esbuild' } } }, 'functions.f.build', 'esbuild settings'],
  ])('refuses a bad function %j at "%s"', (config, path, reason) => {
    expect(() => checkConfig(config, 'eddy.config.json')).toThrow(
      expect.objectContaining({ path, message: expect.stringContaining(reason) }),
    );
  });
});

describe('serve (programmatic)', () => {
  it('creates the declared tables, applies settings and prints the endpoint', async () => {
    const file = write('serve.json', JSON.stringify({ server: { region: 'eu-west-3' }, tables: [ORDERS] }));
    const lines: string[] = [];
    const running = await serve(
      { config: file, port: 0 },
      { print: (line) => lines.push(line), cwd: directory },
    );
    try {
      expect(lines[0]).toBe(`eddy listening on ${running.address.url}`);
      expect(lines.join('\n')).toContain(
        `aws dynamodb scan --table-name Orders --endpoint-url ${running.address.url}`,
      );
      expect(running.engine.region('000000000000', 'eu-west-3').tables.has('Orders')).toBe(true);
      const health = await send(running.address.url, { method: 'GET', path: '/_eddy/health' });
      expect(health.json).toMatchObject({ region: 'eu-west-3', tables: 1, version: '0.1.0' });
    } finally {
      await running.close();
    }
  });

  it('applies server.cors and server.allowedHosts, and --cors wins over the file', async () => {
    const file = write(
      'browsers.json',
      JSON.stringify({ server: { cors: ['https://app.example.com'], allowedHosts: ['dynamodb.local'] } }),
    );
    const preflight = (origin: string, host?: string) => ({
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', ...(host ? { Host: host } : {}) },
    });
    const fromFile = await serve({ config: file, port: 0 }, { print: () => {}, cwd: directory });
    try {
      const url = fromFile.address.url;
      expect((await send(url, preflight('https://app.example.com'))).status).toBe(200);
      expect((await send(url, preflight('https://other.example'))).status).toBe(403);
      expect((await send(url, preflight('http://localhost:3000', 'dynamodb.local:8000'))).status).toBe(200);
      expect((await send(url, preflight('http://localhost:3000', 'other.local:8000'))).status).toBe(403);
    } finally {
      await fromFile.close();
    }
    const flagged = await serve({ config: file, port: 0, cors: '*' }, { print: () => {}, cwd: directory });
    try {
      const answer = await send(flagged.address.url, preflight('https://other.example'));
      expect(answer.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await flagged.close();
    }
  });

  it('prints the progress of a GSI backfill started by UpdateTable', async () => {
    const file = write('backfill.json', JSON.stringify({ tables: [ORDERS] }));
    const lines: string[] = [];
    const running = await serve(
      { config: file, port: 0 },
      { print: (line) => lines.push(line), cwd: directory },
    );
    try {
      for (let i = 0; i < 2500; i++)
        running.engine.execute('PutItem', {
          TableName: 'Orders',
          Item: { pk: { S: `o-${i}` }, status: { S: i % 2 === 0 ? 'open' : 'shipped' } },
        });
      running.engine.execute('UpdateTable', {
        TableName: 'Orders',
        AttributeDefinitions: [{ AttributeName: 'status', AttributeType: 'S' }],
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: 'ByStatus',
              KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
              Projection: { ProjectionType: 'KEYS_ONLY' },
            },
          },
        ],
      });
      await running.stack.settled();
      const progress = lines.filter((line) => line.startsWith('gsi-maintainer | '));
      expect(progress[0]).toBe('gsi-maintainer | backfilling GSI ByStatus of Orders: 0 of 2,500 items (0%)');
      expect(progress.at(-1)).toMatch(
        /^gsi-maintainer \| backfilled GSI ByStatus of Orders: 2,500 items in \d+\.\d s$/,
      );
    } finally {
      await running.close();
    }
  });

  it('reports a table the engine refuses as a config error at its path', async () => {
    const file = write('refused.json', JSON.stringify({ tables: [{ ...ORDERS, KeySchema: [] }] }));
    const error = await configError(serve({ config: file, port: 0 }, { print: () => {}, cwd: directory }));
    expect(error.path).toBe('tables[0]');
    expect(error.reason).toMatch(/^CreateTable of table 'Orders' failed: ValidationException: /);
  });

  it('serves the demo table without a config', async () => {
    const lines: string[] = [];
    const running = await serve(
      { config: false, port: 0 },
      { print: (line) => lines.push(line), cwd: directory },
    );
    try {
      expect(running.engine.region().tables.has('Demo')).toBe(true);
      // The Streams API answers on the same port (DynamoDBStreams_20120810.*).
      const streams = new DynamoDBStreamsClient({
        endpoint: running.address.url,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const listed = await streams.send(new ListStreamsCommand({ TableName: 'Demo' }));
      expect(listed.Streams).toMatchObject([{ TableName: 'Demo' }]);
      streams.destroy();
      expect(lines.join('\n')).toContain(
        `AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local aws dynamodb scan --table-name Demo --endpoint-url ${running.address.url} --region us-east-1`,
      );
    } finally {
      await running.close();
    }
  });
});
