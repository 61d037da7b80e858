import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { FunctionConfig } from '../../../config.js';
import { type CodeSource, HandlerCodeError, handlerModule } from '../cloudformation/handlerCode.js';
import { isObject } from '../cloudformation/shapes.js';
import type { Block, TerraformModule } from './module.js';

/**
 * An `aws_lambda_function`. Its code: the `archive_file` data source whose `output_path` its
 * `filename` is (the sources it zips: what is written now, not a zip built earlier), else the
 * zip `filename` names; `s3_bucket` and `image_uri` are not local code.
 */
export function readFunction(
  module: TerraformModule,
  block: Block,
  workDirectory: string,
): { name: string; config: Omit<FunctionConfig, 'events'>; notRunning?: string } {
  const get = (...path: (string | number)[]) => module.evaluateAt(block, path);
  const name = get('function_name');
  if (typeof name !== 'string' || name === '')
    return module.fail(block, ['function_name'], 'function_name is required');
  const handler = get('handler');
  const runtime = get('runtime');
  const variables = get('environment', 0, 'variables');
  const environment: Record<string, string> = {};
  if (isObject(variables))
    for (const [key, value] of Object.entries(variables))
      Object.defineProperty(environment, key, { value: String(value), enumerable: true, writable: true });
  const settings = {
    timeout: get('timeout') === undefined ? 3 : Number(get('timeout')),
    memorySize: get('memory_size') === undefined ? 128 : Number(get('memory_size')),
    ...(Object.keys(environment).length === 0 ? {} : { environment }),
  };
  const image = get('package_type') === 'Image' || get('image_uri') !== undefined;
  const notRunning = image
    ? 'a container image: eddy runs Node.js functions from local code'
    : typeof runtime !== 'string'
      ? 'no runtime'
      : /^nodejs/.test(runtime)
        ? undefined
        : `runtime ${runtime}`;
  if (notRunning !== undefined)
    return {
      name,
      config: {
        handler: String(handler ?? '(none)'),
        ...settings,
        runtime: typeof runtime === 'string' ? runtime : 'unknown',
      },
      notRunning,
    };
  if (typeof handler !== 'string') return module.fail(block, ['handler'], 'handler is required');
  const source = codeSource(module, block);
  try {
    const found = handlerModule(source, handler, { functionName: name, workDirectory });
    return {
      name,
      config: {
        handler: found.module,
        ...(found.exportName === 'handler' ? {} : { exportName: found.exportName }),
        ...settings,
        runtime: runtime as string,
      },
    };
  } catch (error) {
    if (!(error instanceof HandlerCodeError)) throw error;
    return module.fail(block, [error.property === 'Handler' ? 'handler' : 'filename'], error.message);
  }
}

function codeSource(module: TerraformModule, block: Block): CodeSource {
  const filename = module.evaluateAt(block, ['filename']);
  if (typeof filename !== 'string') {
    if (module.evaluateAt(block, ['s3_bucket']) !== undefined)
      return {
        kind: 'unavailable',
        reason: 'the code is in S3 (s3_bucket): eddy runs code from local files',
      };
    return {
      kind: 'unavailable',
      reason: 'the function has no filename (a zip, or an archive_file output_path)',
    };
  }
  const zip = resolve(module.directory, filename);
  // The archive_file the zip is made by: run its sources (a zip on disk may be stale or missing).
  for (const candidate of module.allModules()) {
    for (const data of candidate.data.values()) {
      if (data.address[1] !== 'archive_file') continue;
      const output = candidate.evaluateAt(data, ['output_path']);
      if (typeof output !== 'string' || resolve(candidate.directory, output) !== zip) continue;
      const sourceDir = candidate.evaluateAt(data, ['source_dir']);
      if (typeof sourceDir === 'string')
        return { kind: 'directory', directory: resolve(candidate.directory, sourceDir) };
      const sourceFile = candidate.evaluateAt(data, ['source_file']);
      if (typeof sourceFile === 'string') {
        const file = resolve(candidate.directory, sourceFile);
        // The zip holds the file at its root, by its own name: the handler names it so.
        return existsSync(file)
          ? { kind: 'directory', directory: dirname(file) }
          : { kind: 'unavailable', reason: `the archive's source_file ${file} does not exist` };
      }
      return candidate.fail(data, ['source'], 'eddy reads archive_file with source_dir or source_file');
    }
  }
  if (existsSync(zip) && statSync(zip).isFile()) return { kind: 'zip', file: zip };
  return { kind: 'unavailable', reason: `${basename(zip)} does not exist, and no archive_file makes it` };
}
