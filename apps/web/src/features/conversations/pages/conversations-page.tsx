import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { Link } from 'react-router';
import { analyseSmsText, type ConversationDto, type ConversationMessage } from '@wren/contracts';
import { paths } from '@/config/paths';
import { formatDate, formatDateTime, formatTime } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import {
  useArchive,
  useAssign,
  useConversationMembers,
  useConversationMessages,
  useConversationPushes,
  useConversations,
  useMarkRead,
  useReply,
} from '../api/conversations-api';

/** Today's times as a clock time, older ones as the day. */
function when(iso: string): string {
  const at = new Date(iso);
  return at.toDateString() === new Date().toDateString() ? formatTime(iso) : formatDate(iso);
}

/**
 * Messaging → Conversations (issue 40 item 1): the threads with handsets that wrote to the
 * account's numbers (or were replied to), and each thread's messages in both directions, with a
 * reply box. Two panes on desktop; on a phone the list, and the thread as its own view.
 */
export default function ConversationsPage() {
  const t = useT();
  const mobile = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<'open' | 'archived'>('open');
  const [mine, setMine] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  useConversationPushes();

  const list = useConversations({ q, status, mine });
  const items = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const unreadTotal = list.data?.pages[0]?.unreadTotal ?? 0;
  const open = items.find((c) => c.id === openId) ?? null;
  const filtered = Boolean(q) || mine || status === 'archived';

  const listPane = (
    <Stack gap="sm" data-testid="conversation-list">
      <TextInput
        aria-label={t('Search conversations')}
        placeholder={t('Search by number, name or text')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      <Group justify="space-between" gap="xs">
        <SegmentedControl
          size="xs"
          value={status}
          onChange={(v) => setStatus(v)}
          data={[
            { value: 'open', label: t('Open') },
            { value: 'archived', label: t('Archived') },
          ]}
        />
        <Switch
          size="sm"
          label={t('Assigned to me')}
          checked={mine}
          onChange={(e) => setMine(e.currentTarget.checked)}
        />
      </Group>
      {list.isPending && (
        <Center p="xl">
          <Loader size="sm" aria-label={t('Loading conversations…')} />
        </Center>
      )}
      {list.isError && (
        <Alert color="red" title={t('Could not load conversations')}>
          <Group gap="sm">
            <Text size="sm">{messageOf(list.error)}</Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('Try again')}
            </Button>
          </Group>
        </Alert>
      )}
      {list.isSuccess && items.length === 0 && !filtered && (
        <Stack gap={4} align="center" p="xl">
          <Text fw={600}>{t('No conversations yet')}</Text>
          <Text size="sm" c="dimmed" ta="center" maw={420}>
            {t('Replies to your numbers arrive here, and you can answer them from this page.')}
          </Text>
          <Anchor component={Link} to={paths.numbers.getHref()} size="sm">
            {t('See your numbers')}
          </Anchor>
        </Stack>
      )}
      {list.isSuccess && items.length === 0 && filtered && (
        <Text size="sm" c="dimmed" ta="center" p="xl">
          {t('No conversations match')}
        </Text>
      )}
      {items.map((c) => (
        <ConversationRow key={c.id} c={c} active={c.id === openId} onOpen={() => setOpenId(c.id)} />
      ))}
      {list.hasNextPage && (
        <Button
          variant="default"
          size="xs"
          loading={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {t('Load more')}
        </Button>
      )}
    </Stack>
  );

  const threadPane = open ? (
    <Thread key={open.id} c={open} onBack={mobile ? () => setOpenId(null) : undefined} />
  ) : (
    <Center h="100%" p="xl">
      <Text size="sm" c="dimmed">
        {t('Choose a conversation')}
      </Text>
    </Center>
  );

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="md">
        <Group gap="sm" justify="space-between">
          <Text size="sm" c="dimmed">
            {t('Replies to your numbers and your answers, one thread per handset.')}
          </Text>
          {unreadTotal > 0 && (
            <Badge color="blue" variant="filled" data-testid="unread-total">
              {t('{{count}} unread', { count: unreadTotal })}
            </Badge>
          )}
        </Group>
        {mobile ? (
          open ? (
            threadPane
          ) : (
            listPane
          )
        ) : (
          <Group align="stretch" gap="md" wrap="nowrap">
            <Box w={340} style={{ flexShrink: 0 }}>
              {listPane}
            </Box>
            <Box
              style={{
                flex: 1,
                minWidth: 0,
                borderInlineStart: '1px solid var(--mantine-color-default-border)',
              }}
              ps="md"
            >
              {threadPane}
            </Box>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function ConversationRow({ c, active, onOpen }: { c: ConversationDto; active: boolean; onOpen: () => void }) {
  const t = useT();
  return (
    <UnstyledButton
      onClick={onOpen}
      data-conversation={c.remote}
      aria-current={active || undefined}
      p="xs"
      style={{
        borderRadius: 'var(--mantine-radius-sm)',
        background: active ? 'var(--mantine-color-default-hover)' : undefined,
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={c.unread > 0 ? 700 : 500} truncate>
          {c.name ?? <span dir="ltr">{c.remote}</span>}
        </Text>
        <Group gap={6} wrap="nowrap">
          <Text size="xs" c="dimmed" title={formatDateTime(c.lastAt)}>
            {when(c.lastAt)}
          </Text>
          {c.unread > 0 && (
            <Badge size="sm" circle aria-label={t('{{count}} unread', { count: c.unread })}>
              {c.unread}
            </Badge>
          )}
        </Group>
      </Group>
      <Text size="xs" c="dimmed" truncate>
        {c.lastDirection === 'out' ? (
          <>
            {t('You:')} <bdi>{c.lastText}</bdi>
          </>
        ) : (
          <bdi>{c.lastText}</bdi>
        )}
      </Text>
    </UnstyledButton>
  );
}

function Thread({ c, onBack }: { c: ConversationDto; onBack?: () => void }) {
  const t = useT();
  const messages = useConversationMessages(c.id);
  const markRead = useMarkRead();
  const archive = useArchive();
  const assign = useAssign();
  const members = useConversationMembers();
  const { mutate: read } = markRead;
  // Mark read when opened (the thread remounts per id), and again when a new message arrives while open.
  const unread = c.unread > 0;
  const opened = useRef(false);
  useEffect(() => {
    if (!opened.current || unread) read(c.id);
    opened.current = true;
  }, [c.id, unread, read]);

  // Pages come newest first; each page's items are oldest first.
  const items = useMemo(
    () => (messages.data ? [...messages.data.pages].reverse().flatMap((p) => p.items) : []),
    [messages.data],
  );

  return (
    <Stack gap="sm" data-testid="conversation-thread">
      <Group justify="space-between" gap="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          {onBack && (
            <Button variant="subtle" size="xs" onClick={onBack} style={{ flexShrink: 0 }}>
              {t('Back')}
            </Button>
          )}
          <div style={{ minWidth: 0 }}>
            <Text fw={600} truncate>
              {c.name ?? <span dir="ltr">{c.remote}</span>}
            </Text>
            <Text size="xs" c="dimmed">
              {c.name && (
                <>
                  <span dir="ltr">{c.remote}</span>
                  {' · '}
                </>
              )}
              {t('To')} <span dir="ltr">{c.local}</span>
            </Text>
          </div>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Menu position="bottom-end">
            <Menu.Target>
              <Button variant="default" size="xs">
                {c.assigneeName ? t('Assigned: {{name}}', { name: c.assigneeName }) : t('Assign')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(members.data ?? []).map((m) => (
                <Menu.Item key={m.userId} onClick={() => assign.mutate({ id: c.id, userId: m.userId })}>
                  {m.name}
                </Menu.Item>
              ))}
              <Menu.Item onClick={() => assign.mutate({ id: c.id, userId: null })}>{t('Nobody')}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Button
            variant="default"
            size="xs"
            loading={archive.isPending}
            onClick={() => archive.mutate({ id: c.id, archived: !c.archived })}
          >
            {c.archived ? t('Unarchive') : t('Archive')}
          </Button>
        </Group>
      </Group>
      {(archive.isError || assign.isError) && (
        <Alert color="red">{messageOf(archive.error ?? assign.error)}</Alert>
      )}
      <Stack gap={6} mih={200} data-testid="conversation-messages">
        {messages.hasNextPage && (
          <Button
            variant="subtle"
            size="xs"
            loading={messages.isFetchingNextPage}
            onClick={() => void messages.fetchNextPage()}
            style={{ alignSelf: 'center' }}
          >
            {t('Load earlier')}
          </Button>
        )}
        {messages.isPending && (
          <Center p="xl">
            <Loader size="sm" aria-label={t('Loading messages…')} />
          </Center>
        )}
        {messages.isError && <Alert color="red">{messageOf(messages.error)}</Alert>}
        {messages.isSuccess && items.length === 0 && (
          <Text size="sm" c="dimmed" ta="center" p="xl">
            {t('No messages in this conversation yet')}
          </Text>
        )}
        {items.map((m) => (
          <Bubble key={m.id} m={m} />
        ))}
      </Stack>
      <ReplyBox id={c.id} />
    </Stack>
  );
}

function Bubble({ m }: { m: ConversationMessage }) {
  const t = useT();
  const out = m.direction === 'out';
  return (
    <Box
      data-direction={m.direction}
      maw="80%"
      px="sm"
      py={6}
      style={{
        alignSelf: out ? 'flex-end' : 'flex-start',
        borderRadius: 'var(--mantine-radius-md)',
        background: out ? 'var(--mantine-color-blue-light)' : 'var(--mantine-color-default-hover)',
      }}
    >
      <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {m.text}
      </Text>
      <Text size="xs" c="dimmed" ta="end" title={formatDateTime(m.at)}>
        {when(m.at)}
        {out && m.status && ` · ${statusLabel(t, m.status)}`}
      </Text>
    </Box>
  );
}

function statusLabel(t: ReturnType<typeof useT>, status: string): string {
  switch (status) {
    case 'scheduled':
      return t('Scheduled');
    case 'queued':
      return t('Queued');
    case 'sending':
      return t('Sending');
    case 'sent':
      return t('Sent');
    case 'delivered':
      return t('Delivered');
    case 'undelivered':
      return t('Undelivered');
    case 'expired':
      return t('Expired');
    case 'rejected':
      return t('Rejected');
    case 'failed':
      return t('Failed');
    case 'canceled':
      return t('Canceled');
    default:
      return t('Unknown');
  }
}

function ReplyBox({ id }: { id: string }) {
  const t = useT();
  const reply = useReply();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const info = useMemo(() => analyseSmsText(text), [text]);

  const send = async () => {
    if (!text.trim() || reply.isPending) return;
    setError(null);
    try {
      const result = await reply.mutateAsync({ id, text });
      if (result.suppressed?.length) {
        setError(t('This number opted out of your messages, so the reply was not sent.'));
        return;
      }
      setText('');
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <Stack gap={6}>
      {error && (
        <Alert color="red" data-testid="reply-error">
          {error}
        </Alert>
      )}
      <Textarea
        aria-label={t('Reply')}
        placeholder={t('Write a reply… (Ctrl+Enter sends)')}
        autosize
        minRows={2}
        maxRows={6}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={onKey}
      />
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed" data-testid="reply-counter">
          {text && (
            <>
              {info.encoding} · {info.characters} {info.characters === 1 ? t('character') : t('characters')} ·{' '}
              {info.segments} {info.segments === 1 ? t('segment') : t('segments')}
            </>
          )}
        </Text>
        <ActionIcon.Group>
          <Button size="xs" onClick={() => void send()} loading={reply.isPending} disabled={!text.trim()}>
            {t('Send')}
          </Button>
        </ActionIcon.Group>
      </Group>
    </Stack>
  );
}
