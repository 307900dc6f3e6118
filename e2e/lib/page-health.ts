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
    if (problems.length && failure instanceof Error) failure.message += `\n${list}`;
    throw failure;
  }
  if (problems.length) throw new Error(list);
}
