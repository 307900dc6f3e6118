import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 in light mode: white on a filled button and links on white pass WCAG AA (4.5:1).
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // A toast's text in the body colour (Mantine's grey is below 4.5:1 on white).
    Notification: { styles: { description: { color: 'var(--mantine-color-text)' } } },
    // A badge is a status word: whole, never cut ("DELI…", "UNDELIVER…" and "ACT…" in narrow table
    // columns at 1280 px, issue 47 defect 3). It keeps its width and the column grows instead.
    Badge: {
      styles: {
        root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      },
    },
  },
});

/**
 * Colours that meet WCAG AA contrast (axe-core in the browser tests): dimmed text is gray 7 on white
 * (Mantine's gray 6 is 3.3:1), and links use the primary colour's AA shade in both schemes. The
 * light yellow variant (warning alerts such as "The SMPP server is not listening", yellow badges)
 * is a dark amber in the light scheme: Mantine's yellow 9 is 2.9:1 on its own light background;
 * teal, cyan, green, orange, red and blue light variants (status badges) are dark shades too.
 *
 * Dark scheme: the text of disabled controls is dark 2 (3.5:1 on the disabled background, dark 6;
 * Mantine's dark 3 is 2.5:1 and nearly invisible), and the light gray variant (badges such as
 * "Revoked" or "Queued", light gray buttons) is dark 5, a step above the page, not Mantine's
 * near-black that sank into it.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-7)',
    '--mantine-color-yellow-light-color': '#7a5200',
    // The status badges' light variants (delivered teal, sent cyan, undelivered orange, …): Mantine
    // draws their text in shade 6, 2.3–3.6:1 on their own tint; these dark shades are 4.5:1 or more.
    '--mantine-color-teal-light-color': '#066649',
    '--mantine-color-cyan-light-color': '#0b6270',
    '--mantine-color-green-light-color': '#1e6b2e',
    '--mantine-color-orange-light-color': '#a63a0c',
    '--mantine-color-red-light-color': '#b02525',
    '--mantine-color-blue-light-color': '#1864ab',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-placeholder': 'var(--mantine-color-dark-1)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-3)',
    '--mantine-color-disabled-color': 'var(--mantine-color-dark-2)',
    '--mantine-color-gray-light': 'var(--mantine-color-dark-5)',
    '--mantine-color-gray-light-hover': 'var(--mantine-color-dark-4)',
  },
});
