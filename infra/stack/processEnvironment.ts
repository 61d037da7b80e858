/**
 * Variables a local stack sets in `process.env` for its functions (the SDK endpoints, region and
 * placeholder credentials of `listen`, the environment of in-process functions), undone when the
 * stack closes.
 *
 * Stacks can overlap in one process (a test file that starts a second before closing the first),
 * so each stack's settings are a layer: a variable shows the newest open layer's value, and
 * closing a layer brings back the value beneath it, ending with what the process had before any
 * stack. A variable someone else changed since a layer set it is theirs: closing leaves it.
 *
 * @example
 * ```ts
 * const environment = new EnvironmentLayer();
 * environment.set('AWS_ENDPOINT_URL_DYNAMODB', 'http://127.0.0.1:8000');
 * environment.close(); // AWS_ENDPOINT_URL_DYNAMODB is what it was before
 * ```
 */

/** Values before the first open layer touched each variable. */
const original = new Map<string, string | undefined>();
const open: EnvironmentLayer[] = [];

export class EnvironmentLayer {
  private readonly values = new Map<string, string>();
  private closed = false;

  constructor() {
    open.push(this);
  }

  /** Sets a variable for as long as this layer is open (or until a newer layer sets it). */
  set(name: string, value: string): void {
    if (this.closed) return;
    if (!original.has(name)) original.set(name, process.env[name]);
    this.values.set(name, value);
    if (EnvironmentLayer.newestValue(name) === value) process.env[name] = value;
  }

  /** Sets every variable of `variables`. */
  assign(variables: Readonly<Record<string, string>>): void {
    for (const [name, value] of Object.entries(variables)) this.set(name, value);
  }

  /** Whether this layer set `name`. */
  has(name: string): boolean {
    return this.values.has(name);
  }

  /** Removes the layer: each variable it set shows the layer beneath, or its original value. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    open.splice(open.indexOf(this), 1);
    for (const [name, value] of this.values) {
      // Changed by someone else since: theirs to keep.
      if (process.env[name] !== value) continue;
      const beneath = EnvironmentLayer.newestValue(name);
      if (beneath !== undefined) process.env[name] = beneath;
      else {
        const before = original.get(name);
        if (before === undefined) delete process.env[name];
        else process.env[name] = before;
      }
    }
    for (const name of this.values.keys())
      if (!open.some((layer) => layer.values.has(name))) original.delete(name);
  }

  /** What the newest open layer sets `name` to. */
  private static newestValue(name: string): string | undefined {
    for (let index = open.length - 1; index >= 0; index--) {
      const value = open[index]!.values.get(name);
      if (value !== undefined) return value;
    }
    return undefined;
  }
}

/**
 * Points the AWS SDK of the stack's functions at its server: the SDK reads
 * `AWS_ENDPOINT_URL_DYNAMODB` (and `_DYNAMODB_STREAMS`, `_LAMBDA`) from the environment
 * ("Service-specific endpoints", AWS SDKs and Tools reference guide), with the region when none
 * is set and, when no credentials are set (or the server names its keys), credentials it accepts.
 */
export function setSdkEndpoints(
  environment: EnvironmentLayer,
  url: string,
  region: string,
  accessKey: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined,
): void {
  environment.set('AWS_ENDPOINT_URL_DYNAMODB', url);
  environment.set('AWS_ENDPOINT_URL_DYNAMODB_STREAMS', url);
  environment.set('AWS_ENDPOINT_URL_LAMBDA', url);
  if (process.env.AWS_REGION === undefined) environment.set('AWS_REGION', region);
  if (process.env.AWS_ACCESS_KEY_ID === undefined || accessKey !== undefined) {
    environment.set('AWS_ACCESS_KEY_ID', accessKey?.accessKeyId ?? 'eddy');
    environment.set('AWS_SECRET_ACCESS_KEY', accessKey?.secretAccessKey ?? 'eddy');
  }
}
