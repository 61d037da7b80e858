import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DynamoDbError } from '../../core/errors/index.js';
import { LambdaServiceError } from '../../streams/mapping/errors.js';
import type { RestAnswer, RestRequest, RestRoute, RestService } from '../host/restService.js';
import { archiveSummary } from './archive.js';
import { type ConsoleAssets, consolePage, loadConsoleAssets } from './assets.js';
import { listFailedBatches, recordsOfBatch } from './failedBatches.js';
import { flowOf } from './flow.js';
import { FlowHistory } from './flowHistory.js';
import { findInvocation, invokeByHand, listFunctions, listInvocations } from './invocations.js';
import { openLiveFeed } from './liveFeed.js';
import { listMappings, setMappingEnabled } from './mappings.js';
import type { ConsoleSources } from './sources.js';
import { describeTableStream, recentTtlDeletions } from './streamRecords.js';
import { ITEM_OPERATIONS, listTables, runItemOperation } from './tables.js';

/** Where the page is served. */
export const CONSOLE_PATH = '/_eddy/console';
/** The read API's root (docs/console.md lists its routes). */
export const CONSOLE_API_PATH = '/_eddy/api';
/** The header every write request carries, with the token of the page. */
export const TOKEN_HEADER = 'x-eddy-console-token';

/**
 * The roots of the console's API. Listed rather than "all of /_eddy/api/": the Lambda side's
 * read endpoints (`/_eddy/api/mappings`, `/_eddy/api/functions/{name}/code`) live there too.
 */
const API_ROOTS = [
  'overview',
  'tables',
  'event-source-mappings',
  'functions',
  'invocations',
  'invoke',
  'failed-batches',
  'ttl',
  'archive',
  'flow',
  'live',
  'clock',
].map((root) => `${CONSOLE_API_PATH}/${root}`);

/** A request the console refuses (another origin, a missing token, a bad body). */
class ConsoleRequestError extends Error {
  override readonly name = 'ConsoleRequestError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The console as the host serves it: a REST service, and the token its page carries. */
export interface ConsoleService extends RestService {
  readonly token: string;
  /** The flow's rates over time (sampling from the first API request on). */
  readonly history: FlowHistory;
}

/**
 * The event-flow console (docs/console.md): the page at `/_eddy/console` and the JSON API under
 * `/_eddy/api/` it reads, registered on the host like the Lambda API
 * (`server.registerRestService(consoleService(sources))`).
 *
 * Same origin only: a request whose `Origin` (or `Sec-Fetch-Site`) says another site called is
 * refused 403, whatever the server's CORS setting, and every write (POST) must carry the
 * per-process token embedded in the page. The host's Host check already refuses DNS rebinding.
 */
export function consoleService(
  sources: ConsoleSources,
  options: { readonly token?: string } = {},
): ConsoleService {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const history = new FlowHistory(sources);
  let assets: Promise<ConsoleAssets> | undefined;
  const loadAssets = () => {
    assets ??= loadConsoleAssets();
    assets.catch(() => {
      assets = undefined;
    });
    return assets;
  };

  const read = (method: string, path: string, operation: string, handle: RestRoute['handle']): RestRoute => ({
    method,
    path,
    operation,
    handle: (request, context) => {
      sameOrigin(request);
      history.start();
      return handle(request, context);
    },
  });
  const write = (
    path: string,
    operation: string,
    handle: (request: RestRequest, body: Record<string, unknown>) => RestAnswer | Promise<RestAnswer>,
  ): RestRoute => ({
    method: 'POST',
    path,
    operation,
    handle: (request) => {
      sameOrigin(request);
      checkToken(request, token);
      history.start();
      return handle(request, jsonBody(request));
    },
  });
  const json = (body: object): RestAnswer => ({ status: 200, body, headers: NO_STORE });
  const page = (): RestAnswer => ({
    status: 200,
    body: Buffer.from(consolePage(token, CONSOLE_PATH)),
    contentType: 'text/html; charset=utf-8',
    headers: [...NO_STORE, ...PAGE_HEADERS],
  });

  const routes: RestRoute[] = [
    // The page itself may be opened from a link anywhere (a top-level navigation cannot read it,
    // and it cannot be framed); what it then loads and calls is checked as every route is.
    {
      method: 'GET',
      path: CONSOLE_PATH,
      operation: 'Page',
      handle: (request) => {
        if (!isNavigation(request)) sameOrigin(request);
        return page();
      },
    },
    read('GET', `${CONSOLE_PATH}/app.js`, 'Script', async () => ({
      status: 200,
      body: (await loadAssets()).script,
      contentType: 'text/javascript; charset=utf-8',
      headers: NO_STORE,
    })),
    read('GET', `${CONSOLE_PATH}/style.css`, 'Style', async () => ({
      status: 200,
      body: (await loadAssets()).style,
      contentType: 'text/css; charset=utf-8',
      headers: NO_STORE,
    })),
    read('GET', `${CONSOLE_API_PATH}/overview`, 'Overview', () =>
      json({
        accountId: sources.accountId,
        region: sources.region,
        now: sources.clock.now(),
        virtualClock: sources.advance !== undefined,
      }),
    ),
    read('GET', `${CONSOLE_API_PATH}/tables`, 'ListTables', () => json({ Tables: listTables(sources) })),
    write(`${CONSOLE_API_PATH}/tables/{Table}/run`, 'RunItemOperation', (request, body) => {
      const operation = String(body.operation);
      if (!ITEM_OPERATIONS.has(operation))
        throw new ConsoleRequestError(400, `operation must be one of ${[...ITEM_OPERATIONS].join(', ')}`);
      const input = body.input;
      if (typeof input !== 'object' || input === null || Array.isArray(input))
        throw new ConsoleRequestError(400, 'input must be an object (the DynamoDB request)');
      return json(
        runItemOperation(sources, request.params.Table!, operation, input as Record<string, unknown>),
      );
    }),
    read('GET', `${CONSOLE_API_PATH}/tables/{Table}/stream`, 'DescribeTableStream', (request) => {
      const summary = describeTableStream(sources, request.params.Table!, {
        limit: numberParam(request, 'limit'),
        key: request.query.get('key') ?? undefined,
      });
      if (summary === undefined)
        throw new ConsoleRequestError(404, `Table ${request.params.Table} has no stream`);
      return json(summary);
    }),
    read('GET', `${CONSOLE_API_PATH}/event-source-mappings`, 'ListMappings', () =>
      json({ Mappings: listMappings(sources) }),
    ),
    write(
      `${CONSOLE_API_PATH}/event-source-mappings/{UUID}/enabled`,
      'SetMappingEnabled',
      (request, body) => {
        if (typeof body.enabled !== 'boolean')
          throw new ConsoleRequestError(400, 'enabled must be true or false');
        return json(setMappingEnabled(sources, request.params.UUID!, body.enabled));
      },
    ),
    read('GET', `${CONSOLE_API_PATH}/event-source-mappings/{UUID}/batches`, 'ListBatches', (request) => {
      const mapping = listMappings(sources).find((candidate) => candidate.uuid === request.params.UUID);
      if (mapping === undefined) throw new ConsoleRequestError(404, `No mapping ${request.params.UUID}`);
      const batches = listInvocations(sources, mapping.functionName, {
        eventSourceArn: mapping.eventSourceArn,
        limit: numberParam(request, 'limit'),
      });
      return json({ Batches: batches ?? [] });
    }),
    read('GET', `${CONSOLE_API_PATH}/functions`, 'ListFunctions', () =>
      json({ Functions: listFunctions(sources) }),
    ),
    read('GET', `${CONSOLE_API_PATH}/invocations`, 'ListInvocations', (request) => {
      const name = request.query.get('function') ?? '';
      const invocations = listInvocations(sources, name, {
        outcome: request.query.get('outcome') ?? undefined,
        limit: numberParam(request, 'limit'),
      });
      if (invocations === undefined) throw new ConsoleRequestError(404, `No function named ${name}`);
      return json({ Invocations: invocations });
    }),
    read('GET', `${CONSOLE_API_PATH}/invocations/{RequestId}`, 'GetInvocation', (request) => {
      const found = findInvocation(sources, request.query.get('function') ?? '', request.params.RequestId!);
      if (found === undefined)
        throw new ConsoleRequestError(404, `No invocation ${request.params.RequestId}`);
      return json(found);
    }),
    write(`${CONSOLE_API_PATH}/invoke/{FunctionName}`, 'Invoke', async (request, body) => {
      const result = await invokeByHand(sources, request.params.FunctionName!, body.event ?? {});
      if (result === undefined)
        throw new ConsoleRequestError(404, `No function named ${request.params.FunctionName}`);
      return json(result);
    }),
    read('GET', `${CONSOLE_API_PATH}/failed-batches`, 'ListFailedBatches', () =>
      json({ FailedBatches: listFailedBatches(sources) }),
    ),
    read('GET', `${CONSOLE_API_PATH}/failed-batches/{Index}/records`, 'GetFailedBatchRecords', (request) => {
      const batch = failedBatch(sources, request.params.Index!);
      return json({ Records: recordsOfBatch(sources, batch.record) ?? null });
    }),
    write(`${CONSOLE_API_PATH}/failed-batches/{Index}/replay`, 'ReplayFailedBatch', async (request) => {
      const batch = failedBatch(sources, request.params.Index!);
      const records = recordsOfBatch(sources, batch.record);
      if (records === undefined)
        throw new ConsoleRequestError(410, 'The records of this batch are no longer in the stream');
      const result = await invokeByHand(sources, batch.functionName, { Records: records });
      if (result === undefined) throw new ConsoleRequestError(404, `No function named ${batch.functionName}`);
      return json(result);
    }),
    read('GET', `${CONSOLE_API_PATH}/ttl`, 'TtlStatus', () =>
      json({ Ttl: sources.ttl()?.status() ?? null, RecentDeletions: recentTtlDeletions(sources) }),
    ),
    read('GET', `${CONSOLE_API_PATH}/archive`, 'ArchiveStatus', () =>
      json({ Archive: archiveSummary(sources) ?? null }),
    ),
    read('GET', `${CONSOLE_API_PATH}/flow`, 'Flow', () => json(flowOf(sources))),
    read('GET', `${CONSOLE_API_PATH}/flow/history`, 'FlowHistory', () => json(history.answer())),
    read('GET', `${CONSOLE_API_PATH}/live`, 'Live', () => ({
      status: 200,
      contentType: 'text/event-stream; charset=utf-8',
      headers: ['Cache-Control', 'no-store', 'X-Accel-Buffering', 'no'],
      stream: (out) => {
        openLiveFeed(sources, out);
      },
    })),
    write(`${CONSOLE_API_PATH}/clock/advance`, 'AdvanceClock', async (_request, body) => {
      if (sources.advance === undefined)
        throw new ConsoleRequestError(
          409,
          'The stack runs on the system clock: only a virtual clock advances',
        );
      const ms = body.ms;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0 || ms > 366 * 86_400_000)
        throw new ConsoleRequestError(400, 'ms must be a number of milliseconds above 0, at most a year');
      await history.advanceClock(ms, sources.advance);
      return json({ now: sources.clock.now() });
    }),
  ];

  return {
    name: 'EddyConsole',
    signingName: undefined,
    token,
    history,
    owns: (path) =>
      path === CONSOLE_PATH ||
      path.startsWith(`${CONSOLE_PATH}/`) ||
      API_ROOTS.some((root) => path === root || path.startsWith(`${root}/`)),
    routes,
    unknownRoute: (request) => ({ status: 404, body: { message: `No console endpoint at ${request.path}` } }),
    errorAnswer: (error) => {
      if (error instanceof ConsoleRequestError)
        return { status: error.status, body: { message: error.message } };
      if (error instanceof DynamoDbError)
        return { status: error.statusCode, body: { __type: error.name, message: error.message } };
      if (error instanceof LambdaServiceError)
        return { status: error.statusCode, body: { __type: error.name, message: error.message } };
      return undefined;
    },
    internalError: () => ({ status: 500, body: { message: 'Internal error (logged by eddy)' } }),
  };
}

const NO_STORE = ['Cache-Control', 'no-store'];
/**
 * The page runs only its own script and talks only to this server, and no other site may frame
 * it (its buttons write).
 */
const PAGE_HEADERS = [
  'Content-Security-Policy',
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Frame-Options',
  'DENY',
  'X-Content-Type-Options',
  'nosniff',
  'Referrer-Policy',
  'no-referrer',
];

/**
 * Refuses a request a page of another origin made. A browser names the caller in `Origin` (on
 * every cross-origin request, and same-origin POSTs) and in `Sec-Fetch-Site`; a request from
 * the console's own page names this server, and curl or the CLI name nothing.
 */
function sameOrigin(request: RestRequest): void {
  const site = request.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    throw new ConsoleRequestError(403, `The console answers its own page only (Sec-Fetch-Site: ${site})`);
  const origin = request.header('origin');
  if (origin === undefined) return;
  const host = request.header('host');
  if (host === undefined || (origin !== `http://${host}` && origin !== `https://${host}`))
    throw new ConsoleRequestError(403, `The console answers its own page only, not ${origin}`);
}

/** A browser opening the page in a tab (typed, bookmarked, or a link followed). */
function isNavigation(request: RestRequest): boolean {
  return request.header('sec-fetch-mode') === 'navigate' && request.header('sec-fetch-dest') === 'document';
}

function checkToken(request: RestRequest, token: string): void {
  const given = Buffer.from(request.header(TOKEN_HEADER) ?? '');
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new ConsoleRequestError(403, `Writes need the console's token in ${TOKEN_HEADER}`);
}

function jsonBody(request: RestRequest): Record<string, unknown> {
  if (request.body.length === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(request.body.toString('utf8'));
  } catch {
    throw new ConsoleRequestError(400, 'The body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ConsoleRequestError(400, 'The body must be a JSON object');
  return body as Record<string, unknown>;
}

function numberParam(request: RestRequest, name: string): number | undefined {
  const text = request.query.get(name);
  if (text === null || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value)) throw new ConsoleRequestError(400, `${name} must be an integer`);
  return value;
}

function failedBatch(sources: ConsoleSources, index: string) {
  const batch = listFailedBatches(sources)[Number(index)];
  if (!/^\d+$/.test(index) || batch === undefined)
    throw new ConsoleRequestError(404, `No failed batch ${index}`);
  return batch;
}
