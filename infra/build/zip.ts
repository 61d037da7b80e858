import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { zipSync } from 'fflate';

/**
 * Lambda deployment packages (.zip) written with fflate's `zipSync`.
 *
 * - Entries are readable by everyone (Unix mode 0644): Lambda runs the code as a user other than
 *   the file owner and fails with "permission denied" on files without world read permission
 *   (https://docs.aws.amazon.com/lambda/latest/dg/troubleshooting-deployment.html).
 * - Every entry carries the same fixed modification time, so the same bundle always gives the same
 *   bytes: `sam deploy` uploads by content hash and leaves an unchanged function alone.
 */

/** DOS timestamps start in 1980; built from local fields because fflate reads local fields back. */
const FIXED_MTIME = new Date(1980, 0, 2);
const UNIX = 3;
const WORLD_READABLE = 0o644 << 16;

/** The zip of `files` (entry name → bytes), entries in the given order. */
export function lambdaZip(files: Readonly<Record<string, Uint8Array>>): Uint8Array {
  const entries: Record<string, [Uint8Array, { mtime: Date; os: number; attrs: number }]> = {};
  for (const [name, bytes] of Object.entries(files)) {
    entries[name] = [bytes, { mtime: FIXED_MTIME, os: UNIX, attrs: WORLD_READABLE }];
  }
  return zipSync(entries, { level: 9 });
}

/** Zips files into `zipPath`, each under its base name (the package root); returns the zip's size. */
export function writeLambdaZip(zipPath: string, files: readonly string[]): number {
  const zip = lambdaZip(Object.fromEntries(files.map((file) => [basename(file), readFileSync(file)])));
  writeFileSync(zipPath, zip);
  return zip.length;
}
