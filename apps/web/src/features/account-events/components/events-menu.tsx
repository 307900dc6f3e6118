import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Center,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconBell } from '@/components/icons';
import { useAccountEvents, type AccountEvent } from '../api/get-account-events';
import classes from './events-menu.module.css';
import { formatDateTime } from '@/lib/format';
import { useT } from '@/lib/i18n';

function EventList({ events }: { events: AccountEvent[] }) {
  const t = useT();
  if (!events.length) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="lg">
        {t('No recent activity on your account.')}
      </Text>
    );
  }
  return (
    <ScrollArea.Autosize mah={360} type="auto">
      <ul className={classes.list}>
        {events.map((event) => (
          <li key={event.id} className={classes.item}>
            <Text size="sm">{event.message}</Text>
            <Text size="xs" c="dimmed" component="time" dateTime={event.createdAt}>
              {formatDateTime(event.createdAt)}
            </Text>
          </li>
        ))}
      </ul>
    </ScrollArea.Autosize>
  );
}

/** The header's notifications menu: real recent account events, or an empty state. */
export function EventsMenu() {
  const t = useT();
  const [opened, setOpened] = useState(false);
  const events = useAccountEvents(opened);

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} shadow="md" withArrow>
      <Popover.Target>
        <Tooltip label={t('Notifications')} disabled={opened}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('Notifications')}
            aria-expanded={opened}
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown aria-label={t('Recent activity')} role="dialog">
        <Stack gap="xs">
          <Title order={2} size="h6">
            {t('Recent activity')}
          </Title>
          {events.isPending && events.fetchStatus === 'fetching' && (
            <Center py="md">
              <Loader size="sm" />
            </Center>
          )}
          {events.isError && (
            <Alert color="red" variant="light">
              {events.error.message}
            </Alert>
          )}
          {events.data && <EventList events={events.data} />}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
