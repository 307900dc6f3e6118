import {
  analyseSmsText,
  CAMPAIGN_MAX_PASTED,
  MAX_SEGMENTS,
  placeholdersOf,
  withSampleLinks,
} from '@wren/contracts';
import { FieldError } from '../../platform/errors';
import type * as repo from './campaigns.repository';
import { splitPasted } from './recipient-sources';

/**
 * What a scan reads from the request before any recipient: the upload's phone column and the
 * template's columns in it (a 4xx for a missing one), the columns contacts fill (the text's
 * placeholders), whether each recipient's text is its own (`filled`), the bulk text's size, and the
 * pasted numbers.
 */
export function scanLayout(
  src: {
    kind: 'bulk' | 'personalised';
    text: string;
    numbers: string;
    phoneColumn?: string;
    resendOf?: string;
  },
  upload: repo.UploadInfo | undefined,
  /** The tracked links' base, or null: the bulk text is counted as sent, with its short links. */
  linkBase: string | null = null,
) {
  const personalised = src.kind === 'personalised';
  let phoneIndex = -1;
  let columns: string[] = [];
  const columnIndex: number[] = [];
  if (upload) {
    const wanted = src.phoneColumn ?? upload.columns.find((c) => /phone|mobile|msisdn|number|cell/i.test(c));
    phoneIndex = wanted === undefined ? -1 : upload.columns.indexOf(wanted);
    if (phoneIndex < 0 && upload.columns.length === 1) phoneIndex = 0;
    if (phoneIndex < 0) {
      throw new FieldError({
        phoneColumn: [
          src.phoneColumn
            ? `The file has no column "${src.phoneColumn}"`
            : 'The file has no phone column; choose the column with the phone numbers',
        ],
      });
    }
    if (personalised) {
      columns = placeholdersOf(src.text);
      const missing = columns.filter((c) => !upload.columns.includes(c));
      if (missing.length) {
        throw new FieldError({
          text: [
            `No column matches ${missing.map((m) => `{{${m}}}`).join(', ')}; the file's columns are ${upload.columns.join(', ')}`,
          ],
        });
      }
      for (const c of columns) columnIndex.push(upload.columns.indexOf(c));
    }
  }
  // Contacts and pasted numbers fill the text's placeholders from their own fields (issue 47 item 2):
  // a bulk text with {{name}}, or a personalised one from contact groups. Which are known fields is
  // the scan's check (it reads the groups' field keys).
  if (!upload || !personalised) columns = placeholdersOf(src.text);
  if (src.resendOf) columns = personalised ? ['message'] : [];
  const filled = personalised || columns.length > 0;

  const bulkInfo = analyseSmsText(filled ? '' : linkBase ? withSampleLinks(src.text, linkBase) : src.text);
  if (!filled && bulkInfo.segments > MAX_SEGMENTS) {
    throw new FieldError({
      text: [`The message is too long: ${bulkInfo.segments} parts (at most ${MAX_SEGMENTS})`],
    });
  }
  const pasted = splitPasted(src.numbers);
  if (pasted.length > CAMPAIGN_MAX_PASTED) {
    throw new FieldError({
      numbers: [
        `At most ${CAMPAIGN_MAX_PASTED.toLocaleString('en-US')} pasted numbers; upload a file for more`,
      ],
    });
  }
  return { phoneIndex, columns, columnIndex, bulkInfo, pasted, filled };
}
