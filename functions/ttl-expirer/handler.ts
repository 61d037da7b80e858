import middy from '@middy/core';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { injectPorts } from '../shared/middlewares/injectPorts.js';
import type { ExpiredItem, ExpiredItems, Ports } from '../shared/ports.js';
import {
  type ExpirerContext,
  type ExpirerOptions,
  type ExpirerSettings,
  type ExpiryRun,
  expirerSettings,
  resolveSettings,
} from './settings.js';

export type { ExpirerOptions, ExpirerSettings, ExpiryRun } from './settings.js';

/**
 * The ttl-expirer: DynamoDB's Time to Live process, as a scheduled function (docs/streams-and-lambda.md §5,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html).
 *
 * Each run walks the tables with TTL enabled, reads their expired items oldest first through
 * the `ExpiredItems` port, and deletes each one that is due, on the condition that it is still
 * expired, so an update that moved its TTL meanwhile wins (docs/streams-and-lambda.md §5.9). Deletions carry
 * the service identity and consume no capacity (the port's concern, docs/streams-and-lambda.md §5.10–5.11). A
 * run stops after `batchSize` deletions (or `examineLimit` candidates): a large backlog is worked off over
 * several runs and never blocks the host.
 *
 * With `maxDeletionDelay` > 0 an item is due at `expiry + fraction × maxDeletionDelay`, the
 * fraction fixed by a hash of its table and key: the service's lag (docs/streams-and-lambda.md §5.8),
 * reproducibly. Items are read oldest TTL first, so when more than `examineLimit` expired items are not yet
 * due, a due item behind them waits for them: never later than its expiry + `maxDeletionDelay` plus
 * the runs needed to work off the backlog.
 */

/** A page of candidates: enough to fill the batch, more when some may not be due yet. */
const MIN_DELAYED_PAGE = 256;

/** FNV-1a over a string's UTF-16 units: a stable 32-bit hash. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The item's identity for the delay hash: its table, then its key attributes sorted by name. */
function identityOf(item: ExpiredItem): string {
  let text = item.tableArn;
  for (const name of Object.keys(item.keys).sort()) text += `\n${name}=${JSON.stringify(item.keys[name])}`;
  return text;
}

/** When an expired item is due for deletion, epoch ms: its expiry plus its share of the delay. */
export function dueAt(item: ExpiredItem, maxDeletionDelayMs: number): number {
  const expiry = item.expiresAt * 1000;
  if (maxDeletionDelayMs <= 0) return expiry;
  return expiry + Math.floor((fnv1a(identityOf(item)) / 2 ** 32) * maxDeletionDelayMs);
}

/**
 * One run, as a pure function of the port and the settings (the `recordHandler` of this
 * function): deletes due expired items, at most `batchSize`, looking at most at `examineLimit`.
 */
export function expireItems(port: ExpiredItems, settings: ExpirerSettings): ExpiryRun {
  const run: ExpiryRun = { deleted: 0, examined: 0, rescued: 0, more: false };
  const now = port.now();
  const delayed = settings.maxDeletionDelayMs > 0;
  for (const tableArn of port.tables()) {
    let after: string | undefined;
    for (;;) {
      const remaining = settings.batchSize - run.deleted;
      const examinable = settings.examineLimit - run.examined;
      if (remaining <= 0 || examinable <= 0) {
        run.more = true;
        return run;
      }
      const limit = Math.min(examinable, delayed ? Math.max(remaining, MIN_DELAYED_PAGE) : remaining);
      const page = port.expired(tableArn, after === undefined ? { limit } : { limit, after });
      for (const item of page) {
        if (run.deleted >= settings.batchSize) {
          run.more = true;
          return run;
        }
        run.examined++;
        after = item.cursor;
        if (delayed && dueAt(item, settings.maxDeletionDelayMs) > now) continue;
        if (port.deleteIfExpired(item)) run.deleted++;
        else run.rescued++;
      }
      if (page.length < limit) break;
    }
  }
  return run;
}

/**
 * The Lambda handler (a `ScheduledHandler`: EventBridge "Scheduled Event" in, nothing out). The
 * run's figures go to the `onRun` option, as a deployed function would log them.
 */
export async function lambdaHandler(_event: ScheduledEvent, context: Context): Promise<void> {
  const { ports, ttlExpirer } = context as ExpirerContext;
  const port = ports?.expiredItems;
  if (port === undefined) throw new Error('ttl-expirer: no expiredItems port');
  const run = expireItems(port, ttlExpirer?.settings ?? resolveSettings());
  ttlExpirer?.onRun?.(run);
}

/** A handler with its own ports and settings (the host's wiring, tests, several engines). */
export function createHandler(ports?: Ports, options?: ExpirerOptions) {
  return middy<ScheduledEvent, void, Error, ExpirerContext>()
    .use(injectPorts({ ...(ports ? { ports } : {}), require: ['expiredItems'] }))
    .use(expirerSettings(options))
    .handler(lambdaHandler);
}

/** The handler as deployed: its ports come from `providePorts`, its settings are the defaults. */
export const handler = createHandler();
