import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTemplateFile } from '../../../infra/stack/sources/cloudformation/templateFile.js';
import { loadStack } from '../../../infra/stack/sources/index.js';

// serverless.ts and serverless.js: the service as code, its export the service
// (https://www.serverless.com/framework/docs/providers/aws/guide/intro#services: "serverless.yml,
// serverless.ts, serverless.json, serverless.js"). The fixture's service written as code loads
// into the stack its serverless.yml gives.
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'templates', 'serverless');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function copy(): string {
  const folder = mkdtempSync(join(tmpdir(), 'eddy-sls-code-'));
  folders.push(folder);
  cpSync(FIXTURE, folder, { recursive: true });
  return folder;
}

describe('a Serverless service as code', () => {
  const service = readTemplateFile(join(FIXTURE, 'serverless.yml')).template;
  const expected = async () => {
    const folder = copy();
    return { folder, config: (await loadStack({ cwd: folder }))!.config };
  };

  it.each([
    [
      'serverless.ts',
      `const service: Record<string, unknown> = ${JSON.stringify(service, null, 2)};\nmodule.exports = service;\n`,
    ],
    ['serverless.js', `module.exports = ${JSON.stringify(service, null, 2)};\n`],
  ])('%s is found and read as its serverless.yml twin', async (name, source) => {
    const yaml = await expected();
    const folder = copy();
    rmSync(join(folder, 'serverless.yml'));
    writeFileSync(join(folder, name), source);
    const definition = (await loadStack({ cwd: folder }))!;
    expect(definition.origin).toMatchObject({ format: 'serverless', file: join(folder, name) });
    const config = JSON.parse(JSON.stringify(definition.config).replaceAll(folder, yaml.folder));
    expect(config).toEqual(yaml.config);
    expect(Object.keys(yaml.config.functions ?? {}).length).toBeGreaterThan(0);
  });

  it('reports a module that does not load, naming the file', async () => {
    const folder = copy();
    rmSync(join(folder, 'serverless.yml'));
    writeFileSync(join(folder, 'serverless.js'), 'throw new Error("broken service");\n');
    await expect(loadStack({ cwd: folder })).rejects.toThrow(
      /serverless\.js.*cannot be loaded: broken service/,
    );
  });
});
