import { Button, EmptyState } from '@mantine/core';
import { Can } from '@/components/can';
import { Link } from 'react-router';
import { IconList } from '@/components/icons';
import { paths } from '@/config/paths';

interface LogEmptyStateProps {
  filtered: boolean;
  onClearFilters: () => void;
  /** What is listed, e.g. "messages" or "scheduled messages". */
  noun?: string;
  /** Shown when nothing is filtered. */
  description?: string;
  actionLabel?: string;
}

/** No messages at all (with a way to send one), or none matching the filters. */
export function LogEmptyState({
  filtered,
  onClearFilters,
  noun = 'messages',
  description = 'Messages you send appear here with their delivery status.',
  actionLabel = 'Send an SMS',
}: LogEmptyStateProps) {
  return (
    <EmptyState
      variant="light"
      size="lg"
      icon={<IconList size={30} />}
      title={filtered ? `No ${noun} match these filters` : `No ${noun} yet`}
      description={filtered ? 'Try a wider date range or fewer filters.' : description}
      py={48}
    >
      <EmptyState.Actions>
        {filtered ? (
          <Button variant="default" onClick={onClearFilters}>
            Clear filters
          </Button>
        ) : (
          <Can permission="messages:send">
            <Button component={Link} to={paths.sms.single.getHref()}>
              {actionLabel}
            </Button>
          </Can>
        )}
      </EmptyState.Actions>
    </EmptyState>
  );
}
