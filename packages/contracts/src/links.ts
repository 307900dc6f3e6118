/**
 * Tracked short links (issue 41 item 2). A campaign with `trackLinks` has each URL of each
 * recipient's text replaced by a short link of its own, `{LINK_DOMAIN}/l/{code}`, served by Wren
 * (a 302 to the original). The code is SHORT_LINK_CODE_LENGTH base64url characters (72 random
 * bits), all GSM-7, so a preview with a stand-in code has exactly the sent text's length: the
 * segments and the price of the estimate are those of what is sent.
 */
export const SHORT_LINK_CODE_LENGTH = 12;
/** The path prefix of a short link. */
export const SHORT_LINK_PATH = '/l/';
/** What the estimate and the preview show for a code (the sent text has a random one). */
export const SHORT_LINK_SAMPLE_CODE = 'x'.repeat(SHORT_LINK_CODE_LENGTH);

/** http(s) URLs in a text; a URL ends at white space or at trailing punctuation. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?)\]}]+$/;

/** `text` with each http(s) URL replaced by what `replace` makes of it (in order). */
export function replaceLinks(text: string, replace: (url: string) => string): string {
  return text.replace(URL_IN_TEXT, (match) => {
    const trail = TRAILING.exec(match)?.[0] ?? '';
    const url = match.slice(0, match.length - trail.length);
    return url.length > 'https://'.length ? replace(url) + trail : match;
  });
}

/** The URLs `replaceLinks` would replace. */
export function linksIn(text: string): string[] {
  const out: string[] = [];
  replaceLinks(text, (url) => {
    out.push(url);
    return url;
  });
  return out;
}

/** The text as sent with tracked links, with the stand-in code (for segments, price, preview). */
export const withSampleLinks = (text: string, linkBase: string): string =>
  replaceLinks(text, () => `${linkBase}${SHORT_LINK_PATH}${SHORT_LINK_SAMPLE_CODE}`);
