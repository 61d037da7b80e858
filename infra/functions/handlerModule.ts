import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LambdaHandler } from './runHandler.js';

/**
 * Loads a handler from a module file: TypeScript (`.ts`, `.mts`, `.cts`) through tsx's
 * `tsImport`, so a project's handler runs as written, or JavaScript such as an esbuild bundle
 * (`.mjs`, `.js`) through `import()`. The export is named as in Lambda's handler setting
 * (`handler`, or a dotted path such as `handlers.audit`).
 */
export class HandlerLoadError extends Error {
  override readonly name: string;
  constructor(
    errorType: 'Runtime.ImportModuleError' | 'Runtime.HandlerNotFound',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = errorType;
  }
}

export function isTypeScript(file: string): boolean {
  return /\.[mc]?tsx?$/.test(file);
}

export async function loadHandler(
  file: string,
  exportName = 'handler',
  cwd = process.cwd(),
): Promise<LambdaHandler> {
  const path = isAbsolute(file) ? file : resolve(cwd, file);
  const url = pathToFileURL(path).href;
  let module: Record<string, unknown>;
  try {
    if (isTypeScript(path)) {
      const { tsImport } = await import('tsx/esm/api');
      module = (await tsImport(url, import.meta.url)) as Record<string, unknown>;
    } else {
      module = (await import(url)) as Record<string, unknown>;
    }
  } catch (error) {
    throw new HandlerLoadError(
      'Runtime.ImportModuleError',
      `Error: Cannot load ${file}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const lookup = (root: unknown) =>
    exportName
      .split('.')
      .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], root);
  const handler = lookup(module) ?? lookup(module.default);
  if (typeof handler !== 'function')
    throw new HandlerLoadError(
      'Runtime.HandlerNotFound',
      `${file}.${exportName} is undefined or not exported`,
    );
  return handler as LambdaHandler;
}
