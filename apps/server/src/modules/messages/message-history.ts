import type { MessageEventDto } from '@wren/contracts';
import type { Selectable } from 'kysely';
import type { MessagingTables } from '../../db/schema-messaging';
import { toEventDto } from './message-dto';
import type { MessageRow } from './messages.repository';

type EventRow = Selectable<MessagingTables['message_events']>;
type PartRow = Pick<Selectable<MessagingTables['message_parts']>, 'part' | 'smsc_key' | 'connection' | 'raw'>;

/**
 * A message's history as the SMS log shows it. The happy path stores no event rows: its steps are
 * read from the message and its parts (accepted, submitted with the SMSC ids, done with the raw final
 * receipt); every stored event (retries, failures, partial submits, receipts of multipart messages,
 * duplicates, cancels, expiry) is merged in by time.
 */
export function messageHistory(m: MessageRow, parts: PartRow[], events: EventRow[]): MessageEventDto[] {
  const steps: MessageEventDto[] = [
    {
      id: 'accepted',
      status: m.scheduled_at ? 'scheduled' : 'queued',
      detail: m.scheduled_at ? `Scheduled for ${m.scheduled_at.toISOString()}` : 'Accepted and queued',
      raw: null,
      createdAt: m.created_at.toISOString(),
    },
  ];
  if (m.submitted_at) {
    const ids = parts.map((p) => p.smsc_key).join(', ');
    steps.push({
      id: 'submitted',
      status: 'sent',
      detail: `Submitted via ${m.connection ?? parts[0]?.connection ?? 'SMSC'}${ids ? `, SMSC id ${ids}` : ''}`,
      raw: null,
      createdAt: m.submitted_at.toISOString(),
    });
  }
  const stored = events.map(toEventDto);
  const storedFinal = stored.some((e) => e.status === m.status);
  if (m.done_at && !storedFinal) {
    const receipt = m.smsc_stat ? `${m.smsc_stat}${m.smsc_err ? ` (err ${m.smsc_err})` : ''}` : null;
    // A one-part message's final receipt: on its part since 0026, on the message before. A
    // multipart message's receipts are events of their own.
    const onePart = new Set(parts.map((p) => p.part)).size === 1;
    const raw = m.receipt_raw ?? (onePart ? (parts.find((p) => p.raw !== null)?.raw ?? null) : null);
    steps.push({
      id: 'done',
      status: m.status,
      detail: receipt ? `Final: ${receipt}` : (m.error ?? null),
      raw,
      createdAt: m.done_at.toISOString(),
    });
  }
  return [...steps, ...stored].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** A routing decision's event (outcome-settlement.ts): the route, connection, reason and cost. */
export const ROUTED_PREFIX = 'Routed: ';

/** What a final receipt stat means, in words, for customers. */
const STAT_WORDS: Record<string, string> = {
  DELIVRD: 'delivered to the handset',
  UNDELIV: 'the carrier could not deliver it',
  EXPIRED: 'the handset was unreachable until the message expired',
  REJECTD: 'the carrier rejected it',
  DELETED: 'the carrier deleted it',
  UNKNOWN: 'the carrier does not know what became of it',
  ACCEPTD: 'the carrier accepted it',
  ENROUTE: 'on its way',
};

/** One step's text as a customer sees it: no connection names or worker internals. */
function customerDetail(detail: string | null): string | null {
  if (detail === null) return null;
  const submitted = /^Submitted via [^,]+(?:, (SMSC id .+))?$/.exec(detail);
  if (submitted) return `Submitted to the SMSC${submitted[1] ? `, ${submitted[1]}` : ''}`;
  const partly = /^Partly submitted via [^(]+\((\d+) part\(s\)\)/.exec(detail);
  if (partly) return `Partly submitted (${partly[1]} part(s)); the rest could not be sent`;
  if (/^Reclaimed after a worker lease expired/.test(detail))
    return 'Sending took longer than expected; queued again';
  const final = /^Final: ([A-Z]+)(.*)$/.exec(detail);
  if (final) {
    const words = STAT_WORDS[final[1]];
    return words ? `${detail}: ${words}` : detail;
  }
  return detail;
}

/**
 * The history for a customer: statuses, times, the outcome in words and the SMSC's status and error
 * code; raw receipts (text and TLVs) and internal names stay for admins.
 */
export function customerHistory(events: MessageEventDto[]): MessageEventDto[] {
  // Which carrier connection a message went through, and what it cost, are the operator's.
  return events
    .filter((e) => !e.detail?.startsWith(ROUTED_PREFIX))
    .map((e) => ({ ...e, detail: customerDetail(e.detail), raw: null }));
}
