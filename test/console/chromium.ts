import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium (scripts/install-chromium.sh; .ci/run runs it before the tests), driven by
 * playwright-core: one browser and one page per test file.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/**
 * Without these, Chromium on a machine with no network stalls on its background fetches
 * (component updates, sync, QUIC probes); no GPU in CI.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The same pixels on every run: no font hinting or subpixel choices that vary by display.
  '--font-render-hinting=none',
  '--force-color-profile=srgb',
  // One raster thread: two runs antialiased a button's rounded corner differently (8 pixels of
  // console-items.png, one step of grey apart).
  '--num-raster-threads=1',
];

/** The README's screenshots are this size (docs/console.md "Screenshots"). */
export const VIEWPORT = { width: 1200, height: 750 };

/**
 * `EDDY_SCREENSHOTS=1` (`npm run screenshots`): the view tests also write the README's
 * screenshots, docs/images/console-<view>.png.
 */
export const SCREENSHOTS = process.env.EDDY_SCREENSHOTS === '1';
const IMAGES = join(import.meta.dirname, '..', '..', 'docs', 'images');

export interface Chromium {
  readonly page: Page;
  close(): Promise<void>;
}

export async function openChromium(): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'eddy-chromium-'));
  let browser: BrowserContext | undefined;
  try {
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      colorScheme: 'light',
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(10_000);
    if (SCREENSHOTS) await page.addInitScript(STEADY_TEXT);
    const opened = browser;
    return {
      page,
      close: async () => {
        await opened.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

/** Writes docs/images/console-<name>.png of what the page shows now, when EDDY_SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(IMAGES, { recursive: true });
  // Stand-ins numbered by where they stand in the page, not by which came first (the live feed
  // and a list's load race each other), then two frames: the text rewritten is painted.
  await page.evaluate(() => (globalThis as unknown as { eddyRenumber?: () => void }).eddyRenumber?.());
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.screenshot({ path: join(IMAGES, `console-${name}.png`), animations: 'disabled', caret: 'hide' });
}

/**
 * Runs in the page before its own script, for screenshots only: what differs from run to run
 * although the data and the virtual clock are the same (random UUIDs of mappings and requests,
 * shard id suffixes and event ids made from a table's random id, handler durations measured in
 * real time) is shown as fixed stand-ins, so that regenerating the screenshots changes a PNG
 * only when the view changed. Stand-ins have the same length and keep distinct values distinct.
 */
const STEADY_TEXT = `(() => {
  const standIns = new Map();
  const given = new Set();
  const realOf = new Map();
  let count = 0;
  const hex = (seed, length) => {
    let out = '';
    let x = (seed * 2654435761) >>> 0;
    while (out.length < length) {
      x = (Math.imul(x ^ (x >>> 15), 2246822507) + seed) >>> 0;
      out += x.toString(16).padStart(8, '0');
    }
    return out.slice(0, length);
  };
  const standIn = (real, make) => {
    if (given.has(real)) return real;
    let fixed = standIns.get(real);
    if (fixed === undefined) {
      fixed = make(++count);
      standIns.set(real, fixed);
      given.add(fixed);
      realOf.set(fixed, real);
    }
    return fixed;
  };
  const uuid = (real) =>
    standIn(real, (n) => {
      const h = hex(n, 32);
      const fixed = h.slice(0, 8) + '-' + h.slice(8, 12) + '-4' + h.slice(13, 16) + '-a' + h.slice(17, 20) + '-' + h.slice(20);
      standIns.set(real.slice(0, 8), fixed.slice(0, 8));
      given.add(fixed.slice(0, 8));
      realOf.set(fixed.slice(0, 8), real.slice(0, 8));
      return fixed;
    });
  const steady = (text) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, uuid)
      .replace(/(mapping )([0-9a-f]{8})\\b/g, (_, word, short) => word + standIn(short, (n) => hex(n, 8)))
      .replace(/(shardId-\\d{20}-)([0-9a-f]{8})/g, (_, head, tail) => head + standIn(tail, (n) => hex(n, 8)))
      .replace(/\\b[0-9a-f]{32}\\b/g, (id) => standIn(id, (n) => hex(n, 32)))
      .replace(/Billed Duration: \\d+ ms/g, 'Billed Duration: 1 ms')
      .replace(/Duration: \\d+\\.\\d+ ms/g, 'Duration: 0.50 ms');
  const fix = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentElement;
      const text = parent !== null && parent.closest('.duration') !== null ? '1 ms' : steady(node.data);
      if (text !== node.data) node.data = text;
    } else for (const child of node.childNodes) fix(child);
  };
  const forget = () => {
    standIns.clear();
    given.clear();
    realOf.clear();
    count = 0;
  };
  // Each view numbers its stand-ins from the start (the router renders after this listener).
  addEventListener('hashchange', forget);
  // Before a screenshot: the real values back, then stand-ins again in document order, so the
  // numbering depends on what the page shows, not on the order it arrived in.
  const real = (text) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (token) => realOf.get(token) ?? token)
      .replace(/\b[0-9a-f]{32}\b/g, (token) => realOf.get(token) ?? token)
      .replace(/(mapping |shardId-d{20}-)([0-9a-f]{8})\b/g, (_, head, token) => head + (realOf.get(token) ?? token));
  globalThis.eddyRenumber = () => {
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
    const texts = [];
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) texts.push(node);
    const reals = texts.map((node) => real(node.data));
    forget();
    texts.forEach((node, index) => {
      const text = steady(reals[index]);
      if (text !== node.data) node.data = text;
    });
  };
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === 'characterData') fix(change.target);
      else for (const node of change.addedNodes) fix(node);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();`;
