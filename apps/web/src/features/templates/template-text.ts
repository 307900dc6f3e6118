import type { SmsTextInfo } from '@wren/contracts';

export type TextPiece = { kind: 'text'; text: string } | { kind: 'placeholder'; text: string; name: string };

/** The same placeholder syntax as the server: `{{name}}`, spaces allowed inside the braces. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Built-in placeholders every contact can fill; others come from the contact's custom fields. */
export const BUILT_IN_PLACEHOLDERS = ['name', 'phone'] as const;

/** Cuts a text into plain runs and placeholders, in order, for a highlighted preview. */
export function splitPlaceholders(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const start = match.index;
    if (start > last) pieces.push({ kind: 'text', text: text.slice(last, start) });
    pieces.push({ kind: 'placeholder', text: match[0], name: match[1] });
    last = start + match[0].length;
  }
  if (last < text.length) pieces.push({ kind: 'text', text: text.slice(last) });
  return pieces;
}

/**
 * Braces that do not form a placeholder, such as `{{first name}}` or an unclosed `{{name`,
 * each once, so the editor can point them out.
 */
export function brokenPlaceholders(text: string): string[] {
  const rest = text.replace(PLACEHOLDER, ' ');
  // A closed pair with an invalid name, an opening pair left open, or a stray closing pair.
  const found = rest.match(/\{\{[^{}]{0,40}?\}\}|\{\{[^{}\s]*|[^{}\s]*\}\}/g) ?? [];
  return [...new Set(found.map((f) => f.trim()))];
}

/** Inserts a snippet at the selection of a text field; returns the new text and caret position. */
export function insertAt(text: string, snippet: string, start: number, end = start) {
  const next = text.slice(0, start) + snippet + text.slice(end);
  return { text: next, caret: start + snippet.length };
}

/** Characters one SMS holds: 160/153 in GSM-7, 70/67 in UCS-2 (a lone segment holds more). */
export function perSegment(info: Pick<SmsTextInfo, 'encoding' | 'segments'>): number {
  const single = info.segments <= 1;
  if (info.encoding === 'UCS-2') return single ? 70 : 67;
  return single ? 160 : 153;
}

/** How many more characters fit before the message needs another segment. */
export function charactersLeft(info: Pick<SmsTextInfo, 'encoding' | 'segments' | 'characters'>): number {
  const segments = Math.max(1, info.segments);
  return segments * perSegment({ encoding: info.encoding, segments }) - info.characters;
}
