/** The read API (docs/console.md), as the page calls it: same origin, the token on writes. */
const token = document.querySelector<HTMLMetaElement>('meta[name="eddy-console-token"]')?.content ?? '';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string | undefined,
    message: string,
  ) {
    super(type === undefined ? message : `${type}: ${message}`);
  }
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok)
    throw new ApiError(
      response.status,
      body.__type as string | undefined,
      String(body.message ?? response.statusText),
    );
  return body as T;
}

export async function get<T>(path: string): Promise<T> {
  return answer<T>(await fetch(`/_eddy/api/${path}`, { headers: { accept: 'application/json' } }));
}

export async function post<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(
    await fetch(`/_eddy/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-eddy-console-token': token },
      body: JSON.stringify(body),
    }),
  );
}
