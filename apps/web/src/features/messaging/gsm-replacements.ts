/**
 * Look-alike characters that word processors and phones put in text, with the GSM-7 characters
 * they stand for. Replacing them keeps a message in GSM-7 (160 characters a segment, not 70).
 */
const REPLACEMENTS: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u2033': '"',
  '\u00AB': '"',
  '\u00BB': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00A0': ' ',
  '\u2007': ' ',
  '\u2009': ' ',
  '\u202F': ' ',
  '\u200B': '',
  '\u200C': '',
  '\u200D': '',
  '\u2060': '',
  '\uFEFF': '',
};

/** Of `chars`, those that have a GSM-7 look-alike. */
export const replaceableChars = (chars: string[]): string[] => chars.filter((c) => c in REPLACEMENTS);

/** The text with every look-alike replaced by its GSM-7 equivalent. */
export function replaceLookAlikes(text: string): string {
  return [...text].map((c) => REPLACEMENTS[c] ?? c).join('');
}

/** How a character is shown in a list: invisible ones get a name. */
export function describeChar(c: string): string {
  const named: Record<string, string> = {
    '\u00A0': 'no-break space',
    '\u2007': 'figure space',
    '\u2009': 'thin space',
    '\u202F': 'narrow no-break space',
    '\u200B': 'zero-width space',
    '\u200C': 'zero-width non-joiner',
    '\u200D': 'zero-width joiner',
    '\u2060': 'word joiner',
    '\uFEFF': 'byte order mark',
    '\t': 'tab',
  };
  return named[c] ?? c;
}
