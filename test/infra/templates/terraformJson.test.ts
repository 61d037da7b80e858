import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStack } from '../../../infra/stack/sources/index.js';

// Terraform's JSON syntax (*.tf.json, https://developer.hashicorp.com/terraform/language/syntax/json):
// the Terraform fixture written as JSON, as a person writes it (one block an object, not a list
// of one), loads into the same stack as its *.tf files.
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'templates', 'terraform');
let hclFolder: string;
let jsonFolder: string;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** hcl2json's lists of one body back to the object JSON syntax takes. */
function asWritten(value: unknown): unknown {
  if (Array.isArray(value))
    return value.length === 1 && isObject(value[0]) ? asWritten(value[0]) : value.map(asWritten);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, asWritten(inner)]));
}

/** Replaces each *.tf file of a folder (and its sub-folders) by its *.tf.json twin. */
async function toJsonSyntax(folder: string): Promise<void> {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) await toJsonSyntax(path);
    else if (name.endsWith('.tf')) {
      const parsed = await parse(path, readFileSync(path, 'utf8'));
      writeFileSync(
        `${path}.json`,
        JSON.stringify({ '//': 'written as JSON', ...(asWritten(parsed) as Json) }, null, 2),
      );
      rmSync(path);
    }
  }
}

beforeAll(async () => {
  hclFolder = mkdtempSync(join(tmpdir(), 'eddy-tf-hcl-'));
  jsonFolder = mkdtempSync(join(tmpdir(), 'eddy-tf-json-'));
  cpSync(FIXTURE, hclFolder, { recursive: true });
  cpSync(FIXTURE, jsonFolder, { recursive: true });
  await toJsonSyntax(jsonFolder);
});
afterAll(() => {
  rmSync(hclFolder, { recursive: true, force: true });
  rmSync(jsonFolder, { recursive: true, force: true });
});

describe('*.tf.json', () => {
  it('is found in the working folder and gives the stack its *.tf twin gives', async () => {
    expect(readdirSync(jsonFolder).filter((name) => name.endsWith('.tf'))).toEqual([]);
    const fromJson = (await loadStack({ cwd: jsonFolder }))!;
    const fromHcl = (await loadStack({ cwd: hclFolder }))!;
    expect(fromJson.origin.format).toBe('terraform');
    const config = JSON.parse(JSON.stringify(fromJson.config).replaceAll(jsonFolder, hclFolder));
    expect(config).toEqual(fromHcl.config);
    expect(Object.keys(fromHcl.config.tables ?? []).length).toBeGreaterThan(0);
  });

  it('names the file of a JSON syntax error', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'eddy-tf-bad-'));
    try {
      writeFileSync(join(folder, 'main.tf.json'), '{"resource": ');
      await expect(loadStack({ cwd: folder })).rejects.toThrow(/main\.tf\.json: not valid JSON/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
