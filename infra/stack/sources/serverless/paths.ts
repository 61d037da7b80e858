import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The service files the Serverless Framework reads, in its order (serverless.ts and .js are code: not read). */
export const SERVERLESS_FILE_NAMES = ['serverless.yml', 'serverless.yaml', 'serverless.json'] as const;

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
