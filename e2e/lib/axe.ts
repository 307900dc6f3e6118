import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs axe-core (WCAG 2.x A and AA rules) in the page; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the app's Content-Security-Policy does not block.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<any> } }).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return (r.violations as any[]).map((v) => ({
      id: String(v.id),
      impact: v.impact ?? null,
      help: String(v.help),
      targets: (v.nodes as any[])
        .slice(0, 5)
        .map((n) => `${String(n.target?.join(' '))}  ${String(n.html).slice(0, 160)}`),
    }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export const describeViolations = (path: string, vs: AxeViolation[]) =>
  vs.map((v) => `${path}: [${v.impact}] ${v.id} — ${v.help}\n    ${v.targets.join('\n    ')}`).join('\n');
