import { useEffect } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONVERSATIONS_API,
  MEMBERS_API,
  type ConversationDto,
  type ConversationList,
  type ConversationMessages,
  type Member,
  type SendResult,
} from '@wren/contracts';
import { hub } from '@/lib/hub';
import { http } from '@/lib/http/client';

/** Conversations (issue 40 item 1): threads, their messages, read, archive, assign, reply. */

export interface ConversationFilters {
  q?: string;
  status: 'open' | 'archived';
  mine: boolean;
}

export const CONVERSATIONS_ROOT = ['conversations'] as const;
const listKey = (f: ConversationFilters) => [...CONVERSATIONS_ROOT, 'list', f] as const;
const messagesKey = (id: string) => [...CONVERSATIONS_ROOT, 'messages', id] as const;

const pathOf = (pattern: string, id: string) => pattern.replace(':id', encodeURIComponent(id));

/** The threads, newest first, as keyset pages ("Load more"). */
export function useConversations(f: ConversationFilters) {
  return useInfiniteQuery({
    queryKey: listKey(f),
    queryFn: async ({ pageParam }) =>
      (
        await http.get<ConversationList>(CONVERSATIONS_API.list, {
          params: {
            q: f.q || undefined,
            status: f.status,
            mine: f.mine ? '1' : undefined,
            cursor: pageParam,
          },
          noOverlay: true,
        })
      ).data,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: (previous) => previous,
  });
}

/** One thread's messages, newest last; "Load earlier" pages back with `before`. */
export function useConversationMessages(id: string | null) {
  return useInfiniteQuery({
    queryKey: messagesKey(id ?? ''),
    queryFn: async ({ pageParam }) =>
      (
        await http.get<ConversationMessages>(pathOf(CONVERSATIONS_API.messages, id!), {
          params: { before: pageParam },
          noOverlay: true,
        })
      ).data,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.before ?? undefined,
    enabled: Boolean(id),
  });
}

/** The account's members, for the assign menu (the Team page's list). */
export function useConversationMembers() {
  return useQuery({
    queryKey: ['members'],
    queryFn: async () =>
      (await http.get<{ items: Member[] }>(MEMBERS_API.members, { noOverlay: true })).data.items,
  });
}

function useConversationMutation<T, R>(fn: (input: T) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => qc.invalidateQueries({ queryKey: CONVERSATIONS_ROOT }),
  });
}

export const useMarkRead = () =>
  useConversationMutation(
    async (id: string) =>
      (await http.post<ConversationDto>(pathOf(CONVERSATIONS_API.read, id), {}, { noOverlay: true })).data,
  );

export const useArchive = () =>
  useConversationMutation(
    async ({ id, archived }: { id: string; archived: boolean }) =>
      (await http.put<ConversationDto>(pathOf(CONVERSATIONS_API.archive, id), { archived })).data,
  );

export const useAssign = () =>
  useConversationMutation(
    async ({ id, userId }: { id: string; userId: string | null }) =>
      (await http.put<ConversationDto>(pathOf(CONVERSATIONS_API.assignee, id), { userId })).data,
  );

export const useReply = () =>
  useConversationMutation(
    async ({ id, text }: { id: string; text: string }) =>
      (await http.post<SendResult>(pathOf(CONVERSATIONS_API.reply, id), { text }, { noOverlay: true })).data,
  );

/** Refetches the list and the open thread when a reply arrives or a delivery report changes a status. */
export function useConversationPushes() {
  const qc = useQueryClient();
  useEffect(
    () =>
      hub.onPush((push, ..._args) => {
        if (push === 'InboundSmsReceived' || push === 'UserSmsDeliveryUpdated')
          void qc.invalidateQueries({ queryKey: CONVERSATIONS_ROOT });
      }),
    [qc],
  );
}
