import { Button, Card, EmptyState } from '@mantine/core';
import { Link } from 'react-router';
import { Can } from '@/components/can';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { IconSend } from './dashboard-icons';

/** A new account: nothing sent yet. */
export function FirstSmsEmptyState() {
  const t = useT();
  return (
    <Card withBorder radius="md" padding="xl" data-testid="dashboard-empty">
      <EmptyState
        variant="light"
        size="lg"
        icon={<IconSend size={30} />}
        title={t('No messages yet')}
        description={t(
          'Send your first SMS and its delivery status, your daily performance and your latest messages will show up here, updated live.',
        )}
        py={40}
      >
        <Can permission="messages:send">
          <EmptyState.Actions>
            <Button component={Link} to={paths.sms.single.getHref()} leftSection={<IconSend size={18} />}>
              {t('Send your first SMS')}
            </Button>
          </EmptyState.Actions>
        </Can>
      </EmptyState>
    </Card>
  );
}
