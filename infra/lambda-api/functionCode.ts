import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, resolve, sep } from 'node:path';
import { InvalidParameterValueException } from './errors.js';

/**
 * fflate (92 KB of JavaScript), loaded by the first upload of a .zip: most starts have none, and
 * every start would otherwise compile it (bench/startup.ts). `require`, as storing code is
 * synchronous; its CommonJS build is the same code.
 */
const requireModule = createRequire(import.meta.url);
let fflate: typeof import('fflate') | undefined;
const unzipSync = (zip: Uint8Array) =>
  (fflate ??= requireModule('fflate') as typeof import('fflate')).unzipSync(zip);

/**
 * A function's deployment package: the .zip of `Code.ZipFile`, unpacked into a folder of its own
 * (one per revision, so a new version of a module is imported afresh: Node caches modules by
 * path), with the zip kept beside it for GetFunction's `Code.Location`.
 */
export interface StoredCode {
  /** Where the package was unpacked. */
  readonly directory: string;
  /** The zip as uploaded. */
  readonly zipFile: string;
  /** Base64 SHA-256 of the zip (CodeSha256). */
  readonly sha256: string;
  /** Bytes of the zip (CodeSize). */
  readonly size: number;
}

/** Lambda's message for a ZipFile it cannot read. */
const UNZIP_FAILED = 'Could not unzip uploaded file. Please check your file, then try to upload again.';

/** CodeSha256: the base64 SHA-256 of the package bytes. */
export function codeSha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64');
}

/**
 * Unpacks a zip into `<root>/<revision>/`.
 * @throws InvalidParameterValueException when it is not a zip, or an entry would land outside
 *   the folder (`../`, absolute paths).
 */
export function storeCode(root: string, revision: string, zip: Uint8Array): StoredCode {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch {
    throw new InvalidParameterValueException(UNZIP_FAILED);
  }
  const directory = resolve(root, revision);
  const files: [string, Uint8Array][] = [];
  for (const [name, bytes] of Object.entries(entries)) {
    if (name.endsWith('/')) continue;
    const target = resolve(directory, ...posix.normalize(name).split('/'));
    if (!target.startsWith(directory + sep)) throw new InvalidParameterValueException(UNZIP_FAILED);
    files.push([target, bytes]);
  }
  mkdirSync(directory, { recursive: true });
  for (const [target, bytes] of files) {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes, { mode: 0o644 });
  }
  const zipFile = `${directory}.zip`;
  writeFileSync(zipFile, zip);
  return { directory, zipFile, sha256: codeSha256(zip), size: zip.length };
}

/** Removes a revision's folder and zip (after the function moved on, or was deleted). */
export function removeCode(code: Pick<StoredCode, 'directory' | 'zipFile'>): void {
  rmSync(code.directory, { recursive: true, force: true });
  rmSync(code.zipFile, { force: true });
}

export interface HandlerLocation {
  /** The module file, when one of the names the runtime tries exists. */
  readonly file: string | undefined;
  /** The module as the handler setting names it (`index`, `src/app`). */
  readonly moduleName: string;
  /** The export path (`handler`, `handlers.audit`). */
  readonly exportName: string;
}

/**
 * Where a Node.js handler setting points (`index.handler`, `src/app.main`): the module is the part
 * up to the first dot after the last slash, the rest the export path; the runtime tries the name
 * as is, then with `.js`, `.mjs` and `.cjs` ("Define Lambda function handler in Node.js", Lambda
 * developer guide; the runtime interface client's loading order).
 */
export function locateHandler(directory: string, handler: string): HandlerLocation {
  const slash = handler.lastIndexOf('/');
  const dot = handler.indexOf('.', slash + 1);
  const moduleName = dot === -1 ? handler : handler.slice(0, dot);
  const exportName = dot === -1 ? '' : handler.slice(dot + 1);
  const base = join(directory, moduleName);
  const file = ['', '.js', '.mjs', '.cjs']
    .map((extension) => base + extension)
    .find((candidate) => candidate.startsWith(directory + sep) && isFile(candidate));
  return { file, moduleName, exportName };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
