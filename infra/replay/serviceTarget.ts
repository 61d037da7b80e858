import type { EddyConfig } from '../config.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../host/server.js';

/** Where `eddy record` and `eddy event` send their DynamoDB and Streams calls. */
export interface ServiceTargetOptions {
  /** An endpoint URL, e.g. `http://127.0.0.1:8000`. */
  readonly endpoint?: string;
  /** Real AWS: the SDK's own endpoints and credential chain. */
  readonly aws?: boolean;
  readonly region?: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
}

export interface ServiceTarget {
  /** Undefined: the SDK's endpoint for the region (real AWS). */
  readonly endpoint: string | undefined;
  readonly region: string;
  /** Undefined: the SDK's credential chain (environment, profile, ...). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined;
}

/** A target that cannot be worked out (e.g. the config serves on "any free port"). */
export class ServiceTargetError extends Error {
  override readonly name = 'ServiceTargetError';
}

/**
 * Works out the target: `--aws` means AWS itself; otherwise `--endpoint`, else the local eddy the
 * config describes (`server.host`/`server.port`), else `http://127.0.0.1:8000`. Credentials: the
 * flags; for a local eddy that verifies signatures, its first configured key; for a local eddy
 * with no credentials in the environment, placeholders (eddy accepts any unless it verifies).
 */
export function serviceTarget(
  options: ServiceTargetOptions,
  config: EddyConfig | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ServiceTarget {
  const server = config?.server ?? {};
  const region =
    options.region ?? (options.aws ? env.AWS_REGION : server.region) ?? env.AWS_REGION ?? 'us-east-1';
  const flags =
    options.accessKeyId !== undefined && options.secretAccessKey !== undefined
      ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
      : undefined;
  if (options.aws) {
    if (options.endpoint !== undefined)
      throw new ServiceTargetError('--aws and --endpoint exclude each other');
    return { endpoint: undefined, region, credentials: flags };
  }
  let endpoint = options.endpoint;
  if (endpoint === undefined) {
    const port = server.port ?? DEFAULT_PORT;
    if (port === 0)
      throw new ServiceTargetError("the config's server.port is 0 (any free port): pass --endpoint <url>");
    endpoint = `http://${connectableHost(server.host ?? DEFAULT_HOST)}:${port}`;
  }
  const configured = server.accessKeys?.[0];
  const credentials =
    flags ??
    (configured === undefined
      ? env.AWS_ACCESS_KEY_ID || env.AWS_PROFILE
        ? undefined
        : { accessKeyId: 'eddy', secretAccessKey: 'eddy' }
      : { accessKeyId: configured.accessKeyId, secretAccessKey: configured.secretAccessKey });
  return { endpoint, region, credentials };
}

/** The SDK client configuration of a target. */
export function clientConfig(target: ServiceTarget) {
  return {
    region: target.region,
    ...(target.endpoint === undefined ? {} : { endpoint: target.endpoint }),
    ...(target.credentials === undefined ? {} : { credentials: target.credentials }),
  };
}

/** A server bound to every interface is reached on loopback. */
function connectableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
