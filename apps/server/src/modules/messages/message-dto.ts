import type { MessageDto, MessageEventDto, MessageStatus } from '@wren/contracts';
import type { Selectable } from 'kysely';
import type { MessageDtoRow } from './messages.repository';
import type { MessagingTables } from '../../db/schema-messaging';
import { decodeCursor as decodeKey, encodeCursor as encodeKey, timeIdCursor } from '../../shared/cursor';

/**
 * A message's row as the log reads it and a send returns it (messages.repository's DTO columns), the
 * input of `toMessageDto`. Re-exported here for the modules that receive such rows and answer with
 * their DTO, never reading the repository: /v1's send answer (v1.service.ts, from a SendHook).
 */
export type { MessageDtoRow };

export function toMessageDto(m: MessageDtoRow): MessageDto {
  return {
    id: m.id,
    campaignId: m.campaign_id,
    recipient: m.recipient,
    sender: m.sender,
    text: m.body,
    encoding: m.encoding,
    segments: m.segments,
    priceMinor: m.price_minor,
    currency: m.currency,
    status: m.status as MessageStatus,
    error: m.error,
    scheduledAt: m.scheduled_at?.toISOString() ?? null,
    createdAt: m.created_at.toISOString(),
    submittedAt: m.submitted_at?.toISOString() ?? null,
    receiptDueAt: m.receipt_due_at?.toISOString() ?? null,
    doneAt: m.done_at?.toISOString() ?? null,
  };
}

export function toEventDto(e: Selectable<MessagingTables['message_events']>): MessageEventDto {
  return {
    id: String(e.id),
    status: e.status,
    detail: e.detail,
    raw: e.raw,
    createdAt: e.created_at.toISOString(),
  };
}

/** Opaque keyset cursor over (created_at, id), through the one cursor schema (shared/cursor.ts). */
export const encodeCursor = (m: { created_at: Date; id: string }) =>
  encodeKey([m.created_at.toISOString(), m.id]);

/** The (created_at, id) after which the page starts; a forged or stale cursor is a 400 on `cursor`. */
export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = decodeKey(cursor, timeIdCursor);
  return { createdAt: new Date(at), id };
}
