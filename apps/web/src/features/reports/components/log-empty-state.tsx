import { Button, EmptyState } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { Can } from '@/components/can';
import { Link } from 'react-router';
import { IconList } from '@/components/icons';
import { paths } from '@/config/paths';

interface LogEmptyStateProps {
  filtered: boolean;
  onClearFilters: () => void;
  /** What is listed: "messages" or "scheduled messages". */
  noun?: 'messages' | 'scheduled messages';
  /** Shown when nothing is filtered. */
  description?: string;
  actionLabel?: string;
}

/** No messages at all (with a way to send one), or none matching the filters. */
export function LogEmptyState({
  filtered,
  onClearFilters,
  noun = 'messages',
  description,
  actionLabel,
}: LogEmptyStateProps) {
  const t = useT();
  const title =
    noun === 'scheduled messages'
      ? filtered
        ? t('No scheduled messages match these filters')
        : t('No scheduled messages yet')
      : filtered
        ? t('No messages match these filters')
        : t('No messages yet');
  return (
    <EmptyState
      variant="light"
      size="lg"
      icon={<IconList size={30} />}
      title={title}
      description={
        filtered
          ? t('Try a wider date range or fewer filters.')
          : (description ?? t('Messages you send appear here with their delivery status.'))
      }
      py={48}
    >
      <EmptyState.Actions>
        {filtered ? (
          <Button variant="default" onClick={onClearFilters}>
            {t('Clear filters')}
          </Button>
        ) : (
          <Can permission="messages:send">
            <Button component={Link} to={paths.sms.single.getHref()}>
              {actionLabel ?? t('Send an SMS')}
            </Button>
          </Can>
        )}
      </EmptyState.Actions>
    </EmptyState>
  );
}
