import type { MessageDto, MessageEventDto, MessageStatus } from '@wren/contracts';
import type { Selectable } from 'kysely';
import type { MessageRow } from './messages.repository';
import type { MessagingTables } from '../../db/schema-messaging';

export function toMessageDto(m: MessageRow): MessageDto {
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

/** Opaque keyset cursor over (created_at, id). */
export const encodeCursor = (m: { created_at: Date; id: string }) =>
  Buffer.from(JSON.stringify([m.created_at.toISOString(), m.id])).toString('base64url');

export function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string];
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || typeof id !== 'string') return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}
