/**
 * eddy's own errors for the RxJS API (they end in `Error` and carry `cause`: CONTRIBUTING.md, conventions).
 * Service conditions that AWS names (TrimmedDataAccessException...) keep their AWS classes.
 */

/** The table has no stream to read (none enabled, or the ARN names no retained stream). */
export class StreamUnavailableError extends Error {
  override readonly name = 'StreamUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A view type asks for images the stream does not carry (docs/streams-and-lambda.md §1.2.3). */
export class ViewTypeError extends Error {
  override readonly name = 'ViewTypeError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
