import { setTimeout as delay } from 'node:timers/promises';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * Every browser test checks, in one place, that its pages stayed healthy: no uncaught page error
 * (`pageerror`), no failed request (`requestfailed`) and no response of 500 or more. `newContext`
 * watches each context it creates; lib/test's `it` runs each test through `checkPageHealth`, which
 * fails the test when any of its pages had a problem. A spec cannot leave the check out.
 *
 * A test that breaks things on purpose (stops the server, refuses requests) says which problems
 * it expects with `expectProblems`.
 */

/** What went wrong, as one line: `pageerror: …`, `requestfailed: GET … (net::…)`, `HTTP 500: GET …`. */
export type PageProblem = string;

/** Problems of the running test, if one is running. */
let current: PageProblem[] | null = null;
/** Problems seen while no test ran (pages a hook or an earlier test left open): the next test reports them. */
let between: PageProblem[] = [];
const expected = new WeakMap<BrowserContext, RegExp[]>();
const watchedPages = new WeakSet<Page>();
/** Pages still open, so that a failed test can say what each of them showed (`describeOpenPages`). */
const openPages = new Set<Page>();

/**
 * Requests the page cancelled itself (a navigation away, an aborted fetch, a download handed to
 * the browser) end as `net::ERR_ABORTED`. That is the page changing its mind, not a failure.
 */
const CANCELLED = 'net::ERR_ABORTED';

function report(context: BrowserContext, problem: PageProblem): void {
  if ((expected.get(context) ?? []).some((pattern) => pattern.test(problem))) return;
  (current ?? between).push(problem);
}

function watchPage(context: BrowserContext, page: Page): void {
  if (watchedPages.has(page)) return;
  watchedPages.add(page);
  openPages.add(page);
  page.on('close', () => openPages.delete(page));
  page.on('pageerror', (error) => report(context, `pageerror: ${error.message} (on ${page.url()})`));
}

/** Watches every page of the context, now and later (newContext calls this). */
export function watchContext(context: BrowserContext): void {
  for (const page of context.pages()) watchPage(context, page);
  context.on('page', (page) => watchPage(context, page));
  context.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    if (reason === CANCELLED) return;
    report(context, `requestfailed: ${request.method()} ${request.url()} (${reason})`);
  });
  context.on('response', (response) => {
    if (response.status() >= 500)
      report(context, `HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
}

/** Problems in this context that match one of `patterns` are expected, and do not fail the test. */
export function expectProblems(context: BrowserContext, ...patterns: RegExp[]): void {
  expected.set(context, [...(expected.get(context) ?? []), ...patterns]);
}

/** How much of a page's visible text a failure quotes: enough to tell a loader, an error or a wrong page. */
const QUOTED_CHARS = 600;
const QUOTED_PAGES = 4;
/** A hung page must not hold up the failure's report. */
const READ_TIMEOUT_MS = 2_000;

/**
 * What each open page showed when a test failed: its address and the start of its main region's
 * visible text (the whole body's when it has none). CI prints a failure's message and little else,
 * so this is what tells a slow page from an error or a wrong route there.
 */
async function describeOpenPages(): Promise<string> {
  const lines: string[] = [];
  // The most recent few: earlier tests' pages left open say little about this failure.
  for (const page of [...openPages].slice(-QUOTED_PAGES)) {
    const read = page
      .evaluate(
        (max) =>
          ((document.querySelector('main') ?? document.body)?.innerText ?? '')
            .replace(/\s+/g, ' ')
            .slice(0, max),
        QUOTED_CHARS,
      )
      .catch(
        (error: unknown) =>
          `(unreadable: ${error instanceof Error ? error.message.split('\n')[0] : 'error'})`,
      );
    const text = await Promise.race([read, delay(READ_TIMEOUT_MS).then(() => '(no answer in 2 s)')]);
    lines.push(`  - ${page.url()}: ${text}`);
  }
  return lines.length ? `open page(s) when it failed:\n${lines.join('\n')}` : '';
}

/**
 * Adds lines to an error's message, and to its stack, which is what node:test prints: the stack
 * was written when the error was made, with the message as it was then.
 */
function addToMessage(error: Error, extra: string[]): void {
  const text = extra.filter(Boolean).join('\n');
  if (!text) return;
  const before = error.message;
  error.message = `${before}\n${text}`;
  if (error.stack?.includes(before)) error.stack = error.stack.replace(before, error.message);
}

/** Runs a test body, then fails it if any watched page had a problem while it ran (or before it). */
export async function checkPageHealth(body: () => Promise<void>): Promise<void> {
  const outer = current;
  const before = outer ? [] : between;
  if (!outer) between = [];
  const mine: PageProblem[] = [];
  current = mine;
  let failure: unknown = null;
  try {
    await body();
  } catch (error) {
    failure = error ?? new Error('the test failed');
  } finally {
    current = outer;
  }
  const problems = [
    ...before.map((p) => `${p} (between tests: a page left open by an earlier test or a hook)`),
    ...mine,
  ];
  const list = `${problems.length} page problem(s) during the test:\n${problems.map((p) => `  - ${p}`).join('\n')}`;
  if (failure) {
    // The test's own failure comes first; its page problems often explain it.
    const pages = await describeOpenPages();
    if (failure instanceof Error) addToMessage(failure, [problems.length ? list : '', pages]);
    throw failure;
  }
  if (problems.length) throw new Error(list);
}
