import {
  CONVERSATION_MESSAGES_PAGE,
  CONVERSATION_PAGE,
  type ConversationDto,
  type ConversationList,
  type ConversationListQuery,
  type ConversationMessages,
} from '@wren/contracts';
import type { Db } from '../../platform/db';
import { FieldError, notFound } from '../../platform/errors';
import { decodeCursor, encodeCursor, timeIdCursor } from '../../shared/cursor';
import { memberRole } from '../members/membership';
import type { MessagesService } from '../messages/messages.service';
import * as repo from './conversations.repository';

const toDto = (r: repo.ConversationRow): ConversationDto => ({
  id: r.id,
  remote: r.remote,
  local: r.local,
  name: r.name,
  lastAt: r.last_at.toISOString(),
  lastText: r.last_text,
  lastDirection: r.last_direction,
  unread: r.unread,
  archived: r.archived_at !== null,
  assigneeId: r.assigned_user_id,
  assigneeName: r.assignee_name,
});

const cursorOf = (at: Date, id: string) => encodeCursor([at.toISOString(), id]);
const pointOf = (cursor: string) => {
  const [at, id] = decodeCursor(cursor, timeIdCursor);
  return { at: new Date(at), id };
};

/**
 * Conversations (issue 40 item 1): threads of an account with its handsets, read from messages and
 * inbound_messages; a thread's summary row is written by inbound messages (conversation-log.ts) and
 * by replies. Every call is scoped to the caller's account.
 */
export function createConversationsService(deps: { db: Db; messages: MessagesService }) {
  const { db } = deps;

  async function own(accountId: string, id: string) {
    const row = await repo.getConversation(db, accountId, id);
    if (!row) throw notFound('Conversation');
    return row;
  }

  return {
    async list(
      accountId: string,
      userId: string | null,
      q: ConversationListQuery,
    ): Promise<ConversationList> {
      const rows = await repo.listConversations(db, {
        accountId,
        archived: q.status === 'archived',
        ...(q.q ? { text: q.q } : {}),
        ...(q.mine === '1' && userId ? { assignee: userId } : {}),
        ...(q.cursor ? { after: pointOf(q.cursor) } : {}),
        limit: CONVERSATION_PAGE + 1,
      });
      const page = rows.slice(0, CONVERSATION_PAGE);
      const last = page[page.length - 1];
      return {
        items: page.map(toDto),
        nextCursor: rows.length > CONVERSATION_PAGE && last ? cursorOf(last.last_at, last.id) : null,
        unreadTotal: await repo.unreadTotal(db, accountId),
      };
    },

    async get(accountId: string, id: string): Promise<ConversationDto> {
      return toDto(await own(accountId, id));
    },

    async messages(accountId: string, id: string, before?: string): Promise<ConversationMessages> {
      const c = await own(accountId, id);
      const rows = await repo.threadMessages(db, {
        accountId,
        remote: c.remote,
        local: c.local,
        ...(before ? { before: pointOf(before) } : {}),
        limit: CONVERSATION_MESSAGES_PAGE + 1,
      });
      const page = rows.slice(0, CONVERSATION_MESSAGES_PAGE);
      const oldest = page[page.length - 1];
      return {
        items: page
          .map((m) => ({
            id: m.id,
            direction: m.direction,
            text: m.text,
            at: m.at.toISOString(),
            status: m.status,
            parts: Number(m.parts),
          }))
          .reverse(),
        before: rows.length > CONVERSATION_MESSAGES_PAGE && oldest ? cursorOf(oldest.at, oldest.id) : null,
      };
    },

    async markRead(accountId: string, id: string): Promise<ConversationDto> {
      if (!(await repo.setRead(db, accountId, id))) throw notFound('Conversation');
      return toDto(await own(accountId, id));
    },

    async archive(accountId: string, id: string, archived: boolean): Promise<ConversationDto> {
      if (!(await repo.setArchived(db, accountId, id, archived))) throw notFound('Conversation');
      return toDto(await own(accountId, id));
    },

    /** Gives the thread to a member of the account (or to nobody). */
    async assign(accountId: string, id: string, userId: string | null): Promise<ConversationDto> {
      await own(accountId, id);
      if (userId && !(await memberRole(db, accountId, userId))) {
        throw new FieldError({ userId: ['Choose a member of this account'] });
      }
      await repo.setAssignee(db, accountId, id, userId);
      return toDto(await own(accountId, id));
    },

    /**
     * Replies from the thread's number or sender: priced, debited and queued like any single SMS
     * (refused the same way: balance, opt-out, sender). The thread then shows it as its last message.
     */
    async reply(accountId: string, userId: string | null, id: string, text: string) {
      const c = await own(accountId, id);
      const sent = await deps.messages.sendSingle({
        accountId,
        userId,
        recipients: [c.remote],
        text,
        senderId: c.local,
      });
      await repo.touchConversation(db, {
        accountId,
        remote: c.remote,
        local: c.local,
        text,
        direction: 'out',
        at: new Date(),
      });
      await repo.setRead(db, accountId, id);
      return sent;
    },
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
