/** eddy's own host errors (not DynamoDB's): each names what failed and carries the cause. */

/** The port is taken by another process (EADDRINUSE). */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  constructor(
    readonly host: string,
    readonly port: number,
    options?: { cause?: unknown },
  ) {
    super(
      `Port ${port} on ${host} is already in use. Stop the other process or choose another port ` +
        `(--port <n>, or --port 0 for any free port).`,
      options,
    );
  }
}

/** The server could not bind for another reason (permission, unknown host...). */
export class ListenError extends Error {
  override readonly name = 'ListenError';
  constructor(
    readonly host: string,
    readonly port: number,
    options: { cause: unknown },
  ) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`Cannot listen on ${host}:${port}: ${reason}`, options);
  }
}
