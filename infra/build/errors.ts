/** A function that cannot be bundled: which one and why (esbuild's messages, when it failed). */
export class BuildError extends Error {
  override readonly name = 'BuildError';
  constructor(
    readonly functionName: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`function '${functionName}': ${reason}`, options);
  }
}
