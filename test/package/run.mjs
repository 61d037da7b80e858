// `npm run test:package`: eddy as its users get it. Packs the package (`prepack` builds dist/),
// installs the tarball into one temporary project (one install, shared by every scenario), and
// runs there what a user would: a plain Node ES module, a CommonJS script, the votes example's
// vitest tests, the jest example's tests, `npx eddy serve` answering a real DynamoDBClient (and
// serving the console), and
// `tsc --noEmit` of a TypeScript consumer with moduleResolution node16 and bundler.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installProject, pack, pinned, ROOT } from './project.mjs';

// The AWS SDK's notice that its 2027 releases need Node 22, once per process: noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const started = performance.now();
const work = mkdtempSync(join(tmpdir(), 'eddy-package-'));
const project = join(work, 'project');
const results = [];

/** Runs a command in the project; resolves with its exit code and output. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? project,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.detached ?? false,
    });
    options.onStart?.(child);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      options.onOutput?.(output, child);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function scenario(name, body) {
  const t = performance.now();
  try {
    await body();
    results.push({ name, ok: true });
    console.log(`✓ ${name} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(`✗ ${name}\n${String(error?.message ?? error).replace(/^/gm, '    ')}`);
  }
}

/** Fails with the command's output unless it exited 0. */
async function succeeds(command, args, options) {
  const { code, output } = await run(command, args, options);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`);
  return output;
}

const node = process.execPath;
const bin = (name, ...path) => join(project, 'node_modules', name, ...path);

try {
  let tarball;
  await scenario(
    'npm pack: the package holds the compiled code, the declarations and the bin, no sources',
    async () => {
      const packed = pack(work);
      tarball = packed.tarball;
      for (const file of [
        'bin/eddy.mjs',
        'dist/cli.js',
        'dist/testing.js',
        'dist/types/infra/testing/index.d.ts',
        'dist/console/app.js',
        'dist/console/style.css',
        'package.json',
        'README.md',
      ])
        if (!packed.files.includes(file)) throw new Error(`${file} is not in the package`);
      const strays = packed.files.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts'));
      if (strays.length > 0) throw new Error(`sources in the package: ${strays.slice(0, 5).join(', ')}`);
    },
  );
  if (tarball === undefined) throw new Error('no tarball');

  await scenario('npm install of the tarball (with vitest, jest, typescript, the AWS SDK)', async () => {
    installProject(project, tarball, [
      ...[
        'vitest',
        'jest',
        'typescript',
        '@types/node',
        '@aws-sdk/client-dynamodb',
        '@aws-sdk/lib-dynamodb',
      ].map(pinned),
      ...['@aws-sdk/util-dynamodb', '@middy/core'].map(pinned),
    ]);
    cpSync(join(ROOT, 'test/package/consumer'), project, { recursive: true });
    cpSync(join(ROOT, 'examples/votes'), join(project, 'votes'), { recursive: true });
    cpSync(join(ROOT, 'examples/jest'), join(project, 'jest'), { recursive: true });
    for (const format of ['sam', 'serverless', 'terraform'])
      cpSync(join(ROOT, 'examples', format), join(project, format), { recursive: true });
  });

  await scenario('plain Node ES module: eddy, eddy/testing, eddy/config, eddy/streams', async () => {
    await succeeds(node, ['esm.mjs']);
  });

  await scenario('CommonJS: require("eddy/testing") (require of ES modules, Node 20.19+)', async () => {
    const output = await succeeds(node, ['cjs.cjs']);
    if (!output.includes('cjs: ok')) throw new Error(output);
  });

  await scenario('vitest: the votes example, against the installed package', async () => {
    // The root config's timeout (a loaded 2-core machine takes more than vitest's default 5 s).
    await succeeds(node, [bin('vitest', 'vitest.mjs'), 'run', '--root', 'votes', '--testTimeout', '20000']);
  });

  await scenario('jest (ES modules, no transform): the jest example', async () => {
    await succeeds(
      node,
      [
        '--experimental-vm-modules',
        bin('jest', 'bin', 'jest.js'),
        '--rootDir',
        'jest',
        '--testTimeout',
        '20000',
      ],
      {
        env: { NODE_OPTIONS: '' },
      },
    );
  });

  await scenario('npx eddy --version, and npx eddy serve answering a DynamoDBClient', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const printed = (await succeeds('npx', ['eddy', '--version'])).trim();
    if (printed !== version) throw new Error(`eddy --version printed ${printed}, not ${version}`);
    let url;
    let server;
    // Its own process group: npx runs eddy in a child, and Ctrl+C stops the group.
    const served = run('npx', ['eddy', 'serve', '--port', '0', '--no-config'], {
      detached: true,
      onStart: (child) => {
        server = child;
      },
      onOutput: (output) => {
        url ??= /eddy listening on (http:\/\/\S+)/.exec(output)?.[1];
      },
    });
    const { DynamoDBClient, ListTablesCommand, PutItemCommand, GetItemCommand } = await import(
      join(project, 'node_modules/@aws-sdk/client-dynamodb/dist-cjs/index.js')
    );
    for (let waited = 0; url === undefined && waited < 200; waited++)
      await new Promise((r) => setTimeout(r, 50));
    if (url === undefined) throw new Error(`eddy serve did not listen:\n${(await served).output}`);
    const client = new DynamoDBClient({
      endpoint: url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      const { TableNames } = await client.send(new ListTablesCommand({}));
      if (TableNames?.join() !== 'Demo') throw new Error(`ListTables: ${TableNames}`);
      const Key = { pk: { S: 'USER#1' }, sk: { S: 'PROFILE' } };
      await client.send(new PutItemCommand({ TableName: 'Demo', Item: { ...Key, name: { S: 'Ada' } } }));
      const { Item } = await client.send(new GetItemCommand({ TableName: 'Demo', Key }));
      if (Item?.name?.S !== 'Ada') throw new Error(`GetItem: ${JSON.stringify(Item)}`);
      // The console, its front end as the package ships it built (dist/console/).
      const page = await fetch(`${url}/_eddy/console`);
      if (page.status !== 200 || !(await page.text()).includes('eddy-console-token'))
        throw new Error(`GET /_eddy/console answered ${page.status}`);
      const script = await fetch(`${url}/_eddy/console/app.js`);
      if (script.status !== 200 || (await script.text()).length < 1000)
        throw new Error(`GET /_eddy/console/app.js answered ${script.status}`);
    } finally {
      client.destroy();
      process.kill(-server.pid, 'SIGTERM');
    }
    // npm itself ends by the signal; eddy stops gracefully: nothing on stderr, the port closed.
    const { output } = await served;
    if (/unexpected failure|shutdown failed|Error:/.test(output))
      throw new Error(`eddy serve on SIGTERM:\n${output}`);
    const refused = await new Promise((resolve) =>
      connect(Number(new URL(url).port), '127.0.0.1')
        .on('connect', function () {
          this.destroy();
          resolve(false);
        })
        .on('error', () => resolve(true)),
    );
    if (!refused) throw new Error(`${url} still accepts connections after SIGTERM`);
  });

  // Issue #18's "done when": a stack file of the user's format and no eddy file; `npx eddy serve` in
  // its folder runs the stream handler (bundled by esbuild from the user's node_modules) on the first
  // write. Each example audits a new order into its audit table.
  // `said`: how eddy names the stack file it found (a Terraform configuration is its folder).
  for (const [format, said, auditTable] of [
    ['sam', 'template.yaml', 'AuditLog'],
    ['serverless', 'serverless.yml', 'AuditLog'],
    ['terraform', '(Terraform configuration, found in the working folder)', 'dev-audit-log'],
  ])
    await scenario(`npx eddy serve in a ${format} project: the stream handler runs on the first write`, () =>
      servesStackOf(format, said, auditTable),
    );

  async function servesStackOf(format, said, auditTable) {
    let url;
    let server;
    const served = run('npx', ['eddy', 'serve', '--port', '0'], {
      cwd: join(project, format),
      detached: true,
      onStart: (child) => {
        server = child;
      },
      onOutput: (output) => {
        url ??= /eddy listening on (http:\/\/\S+)/.exec(output)?.[1];
      },
    });
    const { DynamoDBClient, PutItemCommand, QueryCommand } = await import(
      join(project, 'node_modules/@aws-sdk/client-dynamodb/dist-cjs/index.js')
    );
    for (let waited = 0; url === undefined && waited < 400; waited++)
      await new Promise((r) => setTimeout(r, 50));
    if (url === undefined) throw new Error(`eddy serve did not listen:\n${(await served).output}`);
    const client = new DynamoDBClient({
      endpoint: url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      await client.send(
        new PutItemCommand({
          TableName: 'dev-orders',
          Item: { orderId: { S: '1' }, status: { S: 'placed' } },
        }),
      );
      // The handler writes an audit entry for the new order (its batching window is 1 s).
      let entries = [];
      for (let waited = 0; entries.length === 0 && waited < 300; waited++) {
        await new Promise((r) => setTimeout(r, 50));
        const answer = await client.send(
          new QueryCommand({
            TableName: auditTable,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': { S: 'ORDER#1' } },
          }),
        );
        entries = answer.Items ?? [];
      }
      if (entries[0]?.status?.S !== 'placed')
        throw new Error(`no audit entry from the handler: ${JSON.stringify(entries)}`);
    } finally {
      client.destroy();
      process.kill(-server.pid, 'SIGTERM');
    }
    const { output } = await served;
    if (!output.includes(said)) throw new Error(`eddy did not say it took ${said}:\n${output}`);
  }

  // Both at once. node16 runs with skipLibCheck off: every declaration the package publishes is
  // checked, not only the consumer's use of them; bundler checks how the exports resolve.
  await Promise.all(
    ['node16', 'bundler'].map((resolution) =>
      scenario(`tsc --noEmit of a TypeScript consumer, moduleResolution ${resolution}`, async () => {
        await succeeds(node, [bin('typescript', 'bin', 'tsc'), '-p', `tsconfig.${resolution}.json`]);
      }),
    ),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

const passed = results.filter((result) => result.ok).length;
console.log(`\npackage: ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exitCode = passed === results.length ? 0 : 1;
