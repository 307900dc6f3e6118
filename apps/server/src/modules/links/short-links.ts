import { randomBytes } from 'node:crypto';
import { replaceLinks, SHORT_LINK_PATH } from '@wren/contracts';

/** A new code: 72 random bits as 12 base64url characters (SHORT_LINK_CODE_LENGTH). */
export const newLinkCode = (): string => randomBytes(9).toString('base64url');

/** A short link's row, as the materialiser stores it with its message. */
export interface ShortLinkRow {
  code: string;
  account_id: string;
  campaign_id: string;
  message_id: string;
  url: string;
  expires_at: Date;
}

/**
 * `body` with each URL replaced by a short link of its own under `linkBase`; the links' rows are
 * pushed to `rows` (stored in the same transaction as the message, or neither).
 */
export function linkify(
  body: string,
  link: Omit<ShortLinkRow, 'code' | 'url'> & { linkBase: string },
  rows: ShortLinkRow[],
): string {
  const { linkBase, ...owner } = link;
  return replaceLinks(body, (url) => {
    const code = newLinkCode();
    rows.push({ ...owner, code, url });
    return `${linkBase}${SHORT_LINK_PATH}${code}`;
  });
}

/** A coarse device from the User-Agent; link previews of chat apps and crawlers are `bot`. */
export function deviceOf(userAgent: string | undefined): 'bot' | 'tablet' | 'mobile' | 'desktop' | 'unknown' {
  const ua = userAgent ?? '';
  if (!ua) return 'unknown';
  if (
    /bot|crawl|spider|slurp|preview|facebookexternalhit|whatsapp|telegram|skype|curl|wget|python|httpclient/i.test(
      ua,
    )
  )
    return 'bot';
  if (/ipad|tablet|kindle|silk/i.test(ua) || (/android/i.test(ua) && !/mobile/i.test(ua))) return 'tablet';
  if (/mobi|iphone|ipod|android|windows phone/i.test(ua)) return 'mobile';
  return 'desktop';
}

/** A country a proxy in front of Wren put in a header (ISO 3166 alpha-2), or null. */
export function countryOf(headers: Record<string, string | string[] | undefined>): string | null {
  for (const name of ['cf-ipcountry', 'cloudfront-viewer-country', 'x-country-code']) {
    const v = headers[name];
    const code = (Array.isArray(v) ? v[0] : v)?.trim().toUpperCase();
    if (code && /^[A-Z]{2}$/.test(code) && code !== 'XX') return code;
  }
  return null;
}
