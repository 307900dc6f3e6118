import {
  analyseSmsText,
  CAMPAIGN_MAX_TEXT,
  MAX_SEGMENTS,
  renderPersonalised,
  withSampleLinks,
} from '@wren/contracts';
import { normaliseContactPhone } from '../contacts/contact-phone';
import { unguardCell } from '../contacts/csv';
import { contactValues, type Candidate } from './recipient-sources';
import { VALUE_SEPARATOR } from './scan-types';

/**
 * One candidate checked: its number as E.164 (null: not valid), and for a campaign filled per
 * recipient (personalised, or a text with placeholders) its text and values: a resend's own text, or
 * the template filled from the file's row or the contact. `problem` says why it is not sent;
 * `missing`, the placeholders a contact (or pasted number) has no value for, which are sent empty.
 */
export function checkCandidate(
  c: Candidate,
  t: {
    personalised: boolean;
    /** Each recipient's text is the template filled with its values (personalised, or placeholders). */
    filled: boolean;
    /** The template. */
    text: string;
    columns: string[];
    defaultCountry: string;
    /** Tracked links: the row's text is shown and counted with its short links. */
    linkBase?: string | null;
  },
) {
  const { personalised, filled, columns } = t;
  const raw = unguardCell(c.raw.trim());
  const e164 = raw ? normaliseContactPhone(raw, t.defaultCountry) : null;
  let text: string | null = null;
  let vals: string | null = null;
  let problem: string | null = null;
  let info: ReturnType<typeof analyseSmsText> | null = null;
  let missing: string[] = [];
  if (!e164) problem = raw ? 'Not a valid phone number' : 'No phone number';
  if (c.body !== undefined && personalised) {
    text = c.body;
    vals = c.body;
  } else if (filled) {
    // A source without values of its own (a pasted number, a bulk file's row) knows its phone only.
    const lenient = c.lenient === true || c.values === undefined;
    const values = c.values ?? contactValues(columns, { phone: e164 ?? '', name: '', fields: {} });
    const empty = columns.filter((_, i) => !values[i]);
    if (lenient) missing = empty;
    else if (!problem && empty.length)
      problem = `Missing value for ${empty.map((e) => `{{${e}}}`).join(', ')}`;
    // U+001F separates stored values; PostgreSQL's text cannot hold U+0000.
    if (!problem && values.some((v) => v.includes(VALUE_SEPARATOR) || v.includes('\u0000')))
      problem = 'A value holds a control character';
    text = renderPersonalised(t.text, (name) => values[columns.indexOf(name)] ?? '');
    if (t.linkBase) text = withSampleLinks(text, t.linkBase);
    vals = values.join(VALUE_SEPARATOR);
    if (!problem && text.length > CAMPAIGN_MAX_TEXT)
      problem = `The message is over ${CAMPAIGN_MAX_TEXT} characters`;
    info = analyseSmsText(text);
    if (!problem && info.segments > MAX_SEGMENTS) problem = `The message is over ${MAX_SEGMENTS} parts`;
  }
  return { raw, e164, text, vals, problem, info, missing };
}
