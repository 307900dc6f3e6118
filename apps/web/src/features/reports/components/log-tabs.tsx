import type { ReactNode } from 'react';
import { useT } from '@/lib/i18n';
import { Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { InboxSection } from './inbox-section';

export const LOG_TAB_PARAM = 'tab';
const INBOX = 'inbox';

/**
 * "Sent" (the SMS log) and "Inbox" (inbound SMS and suppressed numbers) on the SMS log page. The
 * tab is kept in the URL (?tab=inbox); arrow keys move between tabs (Mantine Tabs).
 */
export function LogTabs({ sent }: { sent: ReactNode }) {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const tab = params.get(LOG_TAB_PARAM) === INBOX ? INBOX : 'sent';
  const select = (value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === INBOX) next.set(LOG_TAB_PARAM, INBOX);
    else next.delete(LOG_TAB_PARAM);
    setParams(next, { replace: true });
  };
  return (
    <Tabs value={tab} onChange={select} keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="sent">{t('Sent')}</Tabs.Tab>
        <Tabs.Tab value={INBOX}>{t('Inbox')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="sent">{sent}</Tabs.Panel>
      <Tabs.Panel value={INBOX}>
        <InboxSection />
      </Tabs.Panel>
    </Tabs>
  );
}
