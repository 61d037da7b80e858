import { existsSync, readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDuration } from '../../core/clock.js';
import { checkCapacityConfig } from '../capacity/capacityConfig.js';
import type { EddyConfig } from '../config.js';
import { parseCorsSetting } from '../host/cors.js';
import { isRegionName } from '../host/regionName.js';

/** A configuration eddy cannot use: which file, where in it, and why. */
export class ConfigError extends Error {
  override readonly name: string = 'ConfigError';
  constructor(
    readonly file: string,
    /** Where in the file (`tables[1].TableName`), empty for the file as a whole. */
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Bad config ${file}${path === '' ? '' : ` at ${path}`}: ${reason}`, options);
  }
}

/** Looked for, in this order, in the working directory when `--config` is not given. */
export const CONFIG_FILE_NAMES = [
  'eddy.config.ts',
  'eddy.config.mts',
  'eddy.config.mjs',
  'eddy.config.js',
  'eddy.config.json',
] as const;

/** Top-level keys of `EddyConfig`. Later issues add theirs (and their checks below). */
const CONFIG_KEYS = [
  'server',
  'tables',
  'functions',
  'ttl',
  'globalIndexes',
  'globalTables',
  'streams',
  'archive',
  'destinationsDirectory',
  'capacity',
  'kinesis',
];
const SERVER_KEYS = [
  'port',
  'host',
  'region',
  'accountId',
  'maxBodySize',
  'createDelay',
  'mappingTransition',
  'accessKeys',
  'cors',
  'allowedHosts',
];

/** The config file in `directory`, if there is one. */
export function findConfigFile(directory: string): string | undefined {
  for (const name of CONFIG_FILE_NAMES) {
    const candidate = resolve(directory, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Loads and checks a config file: JSON, an ES module (`.mjs`/`.js`), or TypeScript (`.ts`/`.mts`,
 * through tsx). A module's default export (or a `config` export) is the config, or a function
 * returning it.
 * @throws ConfigError naming the file, the path inside it and the reason.
 */
export async function loadConfig(file: string): Promise<EddyConfig> {
  const path = resolve(file);
  if (!existsSync(path)) throw new ConfigError(path, '', 'file not found');
  const extension = extname(path);
  let value: unknown;
  if (extension === '.json') {
    try {
      value = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new ConfigError(path, '', `not valid JSON: ${reasonOf(error)}`, { cause: error });
    }
  } else if (['.ts', '.mts', '.mjs', '.js'].includes(extension)) {
    let module: Record<string, unknown>;
    try {
      module = extension.endsWith('ts')
        ? await (await import('tsx/esm/api')).tsImport(pathToFileURL(path).href, import.meta.url)
        : await import(pathToFileURL(path).href);
    } catch (error) {
      throw new ConfigError(path, '', `cannot be loaded: ${reasonOf(error)}`, { cause: error });
    }
    value = module.default ?? module.config;
    // A .ts file outside an ESM package is compiled as CommonJS: its exports arrive wrapped.
    if (isPlainObject(value) && 'default' in value) value = value.default;
    if (value === undefined) {
      throw new ConfigError(path, '', 'no default export (write `export default defineConfig({ ... })`)');
    }
    if (typeof value === 'function') {
      try {
        value = await (value as () => unknown)();
      } catch (error) {
        throw new ConfigError(path, '', `the exported function failed: ${reasonOf(error)}`, { cause: error });
      }
    }
  } else {
    throw new ConfigError(path, '', `unsupported file type '${extension}' (use .json, .mjs, .js or .ts)`);
  }
  return checkConfig(value, path);
}

/**
 * Checks the shape of a config (the engine checks each table's CreateTable request at start).
 * @throws ConfigError with the path of the first problem.
 */
export function checkConfig(value: unknown, file: string): EddyConfig {
  const fail = (path: string, reason: string): never => {
    throw new ConfigError(file, path, reason);
  };
  if (!isPlainObject(value)) return fail('', 'the config must be an object');
  checkKnownKeys(value, CONFIG_KEYS, '', fail);
  if (value.server !== undefined) checkServer(value.server, fail);
  if (value.capacity !== undefined) checkCapacityConfig(value.capacity, fail);
  if (value.tables !== undefined) {
    if (!Array.isArray(value.tables)) fail('tables', 'must be an array of CreateTable requests');
    const names = new Set<string>();
    for (const [index, table] of (value.tables as unknown[]).entries()) {
      const path = `tables[${index}]`;
      if (!isPlainObject(table)) return fail(path, 'must be an object (a CreateTable request)');
      if (typeof table.TableName !== 'string' || table.TableName === '') {
        fail(`${path}.TableName`, 'must be a non-empty string');
      }
      if (names.has(table.TableName as string))
        fail(`${path}.TableName`, `'${table.TableName}' is declared twice`);
      names.add(table.TableName as string);
      const ttl = table.TimeToLiveSpecification;
      if (ttl !== undefined) {
        if (
          !isPlainObject(ttl) ||
          typeof ttl.AttributeName !== 'string' ||
          typeof ttl.Enabled !== 'boolean'
        ) {
          fail(`${path}.TimeToLiveSpecification`, 'must be { AttributeName: string, Enabled: boolean }');
        }
      }
    }
  }
  if (value.functions !== undefined) checkFunctions(value.functions, fail);
  for (const key of ['ttl', 'globalIndexes', 'globalTables', 'streams', 'archive', 'kinesis'] as const) {
    if (value[key] !== undefined && !isPlainObject(value[key])) fail(key, 'must be an object');
  }
  return value as EddyConfig;
}

const FUNCTION_KEYS = [
  'handler',
  'exportName',
  'timeout',
  'memorySize',
  'environment',
  'isolation',
  'events',
  'runtime',
  'build',
];

function checkFunctions(functions: unknown, fail: (path: string, reason: string) => never): void {
  if (!isPlainObject(functions))
    fail('functions', 'must be an object: function name → { handler, events, ... }');
  for (const [name, fn] of Object.entries(functions as Record<string, unknown>)) {
    const path = `functions.${name}`;
    if (!isPlainObject(fn)) fail(path, 'must be an object');
    const definition = fn as Record<string, unknown>;
    checkKnownKeys(definition, FUNCTION_KEYS, `${path}.`, fail);
    if (typeof definition.handler !== 'string' || definition.handler === '') {
      fail(`${path}.handler`, 'must be the path of the handler module');
    }
    if (
      definition.timeout !== undefined &&
      !(typeof definition.timeout === 'number' && definition.timeout > 0)
    ) {
      fail(`${path}.timeout`, 'must be a positive number of seconds');
    }
    if (
      definition.runtime !== undefined &&
      (typeof definition.runtime !== 'string' || definition.runtime === '')
    )
      fail(`${path}.runtime`, 'must be a Lambda runtime name such as nodejs22.x');
    if (definition.build !== undefined && !isPlainObject(definition.build))
      fail(`${path}.build`, 'must be an object of esbuild settings ({ format, target, external, ... })');
    if (definition.events !== undefined) {
      if (!Array.isArray(definition.events)) fail(`${path}.events`, 'must be an array');
      for (const [index, event] of (definition.events as unknown[]).entries()) {
        const eventPath = `${path}.events[${index}]`;
        if (!isPlainObject(event) || (event.stream === undefined) === (event.schedule === undefined)) {
          fail(eventPath, 'must be { stream: { table, ...mapping settings } } or { schedule: { rate } }');
        }
        const binding = event as Record<string, unknown>;
        if (
          binding.stream !== undefined &&
          !(isPlainObject(binding.stream) && typeof binding.stream.table === 'string')
        ) {
          fail(`${eventPath}.stream.table`, 'must name a table of the config');
        }
      }
    }
  }
}

function checkServer(server: unknown, fail: (path: string, reason: string) => never): void {
  if (!isPlainObject(server)) fail('server', 'must be an object');
  const settings = server as Record<string, unknown>;
  checkKnownKeys(settings, SERVER_KEYS, 'server.', fail);
  const { port, host, region, accountId, maxBodySize, accessKeys, cors, allowedHosts } = settings;
  if (cors !== undefined && cors !== '*') {
    if (!Array.isArray(cors) || !cors.every((origin) => typeof origin === 'string'))
      fail('server.cors', "must be '*' or a list of origins such as 'https://app.example.com'");
    try {
      parseCorsSetting((cors as string[]).join(','));
    } catch (error) {
      fail('server.cors', reasonOf(error));
    }
  }
  if (
    allowedHosts !== undefined &&
    allowedHosts !== '*' &&
    !(Array.isArray(allowedHosts) && allowedHosts.every((name) => typeof name === 'string' && name !== ''))
  ) {
    fail('server.allowedHosts', "must be '*' or a list of host names such as 'dynamodb.local'");
  }
  if (port !== undefined && !(Number.isInteger(port) && (port as number) >= 0 && (port as number) <= 65535)) {
    fail('server.port', 'must be an integer from 0 to 65535');
  }
  if (host !== undefined && (typeof host !== 'string' || host === ''))
    fail('server.host', 'must be a host name or IP');
  if (region !== undefined && !isRegion(region))
    fail('server.region', 'must be a region name such as us-east-1');
  if (accountId !== undefined && !isAccountId(accountId)) fail('server.accountId', 'must be 12 digits');
  if (maxBodySize !== undefined && !(Number.isInteger(maxBodySize) && (maxBodySize as number) > 0)) {
    fail('server.maxBodySize', 'must be a positive integer (bytes)');
  }
  for (const key of ['createDelay', 'mappingTransition'] as const) {
    const value = settings[key];
    if (value === undefined) continue;
    try {
      if (typeof value !== 'number' && typeof value !== 'string') throw new Error('not a duration');
      if (parseDuration(value) < 0) throw new Error('cannot be negative');
    } catch (error) {
      fail(`server.${key}`, `must be milliseconds or a duration such as '2s' (${reasonOf(error)})`);
    }
  }
  if (accessKeys !== undefined) {
    if (!Array.isArray(accessKeys)) fail('server.accessKeys', 'must be an array');
    for (const [index, key] of (accessKeys as unknown[]).entries()) {
      const path = `server.accessKeys[${index}]`;
      if (!isPlainObject(key)) fail(path, 'must be { accessKeyId, secretAccessKey }');
      if (typeof key.accessKeyId !== 'string' || key.accessKeyId === '') {
        fail(`${path}.accessKeyId`, 'must be a non-empty string');
      }
      if (typeof key.secretAccessKey !== 'string' || key.secretAccessKey === '') {
        fail(`${path}.secretAccessKey`, 'must be a non-empty string');
      }
      if (key.accountId !== undefined && !isAccountId(key.accountId)) {
        fail(`${path}.accountId`, 'must be 12 digits');
      }
    }
  }
}

function checkKnownKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  prefix: string,
  fail: (path: string, reason: string) => never,
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) fail(`${prefix}${key}`, `unknown setting (known: ${known.join(', ')})`);
  }
}

/** The same region names requests may be signed for (`infra/host/regionName.ts`). */
export function isRegion(value: unknown): value is string {
  return isRegionName(value);
}

export function isAccountId(value: unknown): value is string {
  return typeof value === 'string' && /^\d{12}$/.test(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
