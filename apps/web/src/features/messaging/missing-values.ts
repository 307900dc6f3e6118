import type { MissingValue } from '@wren/contracts';
import { formatNumber } from '@/lib/format';
import { translate } from '@/lib/i18n';

/**
 * The review's warning lines for placeholders some recipients have no value for (issue 47 item 2):
 * "12 recipients have no value for {{company}}". Those recipients get the text with it left empty.
 */
export function missingValuesLines(missing: readonly MissingValue[] | undefined): string[] {
  return (missing ?? [])
    .filter((m) => m.recipients > 0)
    .map((m) =>
      m.recipients === 1
        ? translate('{{count}} recipient has no value for {{placeholder}}', {
            count: formatNumber(m.recipients),
            placeholder: `{{${m.placeholder}}}`,
          })
        : translate('{{count}} recipients have no value for {{placeholder}}', {
            count: formatNumber(m.recipients),
            placeholder: `{{${m.placeholder}}}`,
          }),
    );
}
