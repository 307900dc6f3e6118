import type { MissingValue } from '@wren/contracts';

/**
 * The review's warning lines for placeholders some recipients have no value for (issue 47 item 2):
 * "12 recipients have no value for {{company}}". Those recipients get the text with it left empty.
 */
export function missingValuesLines(missing: readonly MissingValue[] | undefined): string[] {
  return (missing ?? [])
    .filter((m) => m.recipients > 0)
    .map(
      (m) =>
        `${m.recipients.toLocaleString()} ${m.recipients === 1 ? 'recipient has' : 'recipients have'} no value for {{${m.placeholder}}}`,
    );
}
