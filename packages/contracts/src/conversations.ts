import { z } from 'zod';
import { safeString } from './text';

/**
 * Conversations (issue 40 item 1): one thread per remote handset and the account's number or
 * sender it talks to, holding both directions in time order. A thread starts with an inbound
 * message or a reply; outgoing messages to the handset from that sender show in it too.
 */
export const CONVERSATIONS_API = {
  list: '/api/conversations',
  one: '/api/conversations/:id',
  messages: '/api/conversations/:id/messages',
  read: '/api/conversations/:id/read',
  archive: '/api/conversations/:id/archive',
  assignee: '/api/conversations/:id/assignee',
  reply: '/api/conversations/:id/reply',
} as const;

export const CONVERSATION_PAGE = 30;
export const CONVERSATION_MESSAGES_PAGE = 50;

export const conversationListQuerySchema = z.object({
  q: safeString().trim().max(60).optional(),
  status: z.enum(['open', 'archived']).default('open'),
  mine: z.enum(['0', '1']).optional(),
  cursor: safeString().max(200).optional(),
});
export type ConversationListQuery = z.infer<typeof conversationListQuerySchema>;

export const conversationDtoSchema = z.object({
  id: z.string(),
  remote: z.string(),
  local: z.string(),
  /** The contact's name, when the handset is in one of the account's groups. */
  name: z.string().nullable(),
  lastAt: z.string(),
  lastText: z.string(),
  lastDirection: z.enum(['in', 'out']),
  unread: z.number().int(),
  archived: z.boolean(),
  assigneeId: z.string().nullable(),
  assigneeName: z.string().nullable(),
});
export type ConversationDto = z.infer<typeof conversationDtoSchema>;

export const conversationListSchema = z.object({
  items: z.array(conversationDtoSchema),
  nextCursor: z.string().nullable(),
  /** Unread messages over the account's open threads. */
  unreadTotal: z.number().int(),
});
export type ConversationList = z.infer<typeof conversationListSchema>;

export const conversationMessageDtoSchema = z.object({
  id: z.string(),
  direction: z.enum(['in', 'out']),
  text: z.string(),
  at: z.string(),
  /** Outgoing: the message's status (queued … delivered); incoming: null. */
  status: z.string().nullable(),
  /** Incoming: the parts it was reassembled from; outgoing: its segments. */
  parts: z.number().int(),
});
export type ConversationMessage = z.infer<typeof conversationMessageDtoSchema>;

export const conversationMessagesPageSchema = z.object({
  /** Newest last; `before` pages back in time. */
  items: z.array(conversationMessageDtoSchema),
  before: z.string().nullable(),
});
export type ConversationMessages = z.infer<typeof conversationMessagesPageSchema>;

export const conversationMessagesQuerySchema = z.object({ before: safeString().max(200).optional() });

export const conversationReplySchema = z.object({
  text: safeString().min(1, 'Write a reply').max(1600, 'Keep the reply under 1,600 characters'),
});
export const conversationArchiveSchema = z.object({ archived: z.boolean() });
export const conversationAssigneeSchema = z.object({
  userId: z.uuid({ message: 'Choose a member' }).nullable(),
});
