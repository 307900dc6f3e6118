import type { Page } from 'playwright-core';

const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
const opaque = (c: number[]) => c.length === 3 || (c[3] ?? 0) > 0.9;
const luminance = (c: number[]) =>
  c
    .slice(0, 3)
    .map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
const ratio = (a: number[], b: number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

/**
 * WCAG contrast of an element's text on its background (the first opaque one up its ancestors), and
 * whether that background is at least as light as the surface it sits on.
 */
export async function contrastOf(page: Page, selector: string, text: string) {
  const { color, backgrounds } = await page.evaluate(
    ([sel, label]) => {
      const el = [...document.querySelectorAll(sel)].find((e) => e.textContent?.trim() === label);
      if (!el) throw new Error(`no ${sel} with text ${label}`);
      const backgrounds: string[] = [];
      for (let e: Element | null = el; e; e = e.parentElement)
        backgrounds.push(getComputedStyle(e).backgroundColor);
      return { color: getComputedStyle(el).color, backgrounds };
    },
    [selector, text] as const,
  );
  const layers = backgrounds.map(rgb);
  const own = layers.findIndex(opaque);
  const bg = own >= 0 ? layers[own]! : [255, 255, 255];
  const surface = layers.slice(own + 1).find(opaque) ?? [255, 255, 255];
  return { text: ratio(rgb(color), bg), lighterThanSurface: luminance(bg) >= luminance(surface) };
}
