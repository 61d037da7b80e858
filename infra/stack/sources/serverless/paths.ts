import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * The service files the Serverless Framework reads, in its order: YAML, JSON, then code
 * (`serverless.js`, `serverless.ts`) whose export is the service (docs/serverless.md §1).
 */
export const SERVERLESS_FILE_NAMES = [
  'serverless.yml',
  'serverless.yaml',
  'serverless.json',
  'serverless.js',
  'serverless.ts',
] as const;

/** The serverless.yml (or .yaml, .json) in `directory`, if there is one. */
export function findServerlessFile(directory: string): string | undefined {
  for (const name of SERVERLESS_FILE_NAMES) {
    const candidate = join(directory, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function isServerlessFile(path: string): boolean {
  return (SERVERLESS_FILE_NAMES as readonly string[]).includes(basename(path));
}
