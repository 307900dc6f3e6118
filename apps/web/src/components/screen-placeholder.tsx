import { Button, EmptyState, Paper } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { IconTools } from './icons';
import { useT } from '@/lib/i18n';

interface ScreenPlaceholderProps {
  /** What the finished screen will let the user do. */
  description: string;
}

/** The empty state of a screen whose content a later issue builds. */
export function ScreenPlaceholder({ description }: ScreenPlaceholderProps) {
  const onDashboard = useLocation().pathname === paths.dashboard.path;
  const t = useT();
  return (
    <Paper withBorder radius="md" p="xl">
      <EmptyState
        variant="light"
        size="lg"
        icon={<IconTools size={32} />}
        title={t('This screen is being built')}
        description={description}
        py="xl"
      >
        {!onDashboard && (
          <EmptyState.Actions>
            <Button component={Link} to={paths.dashboard.getHref()} variant="default">
              {t('Back to dashboard')}
            </Button>
          </EmptyState.Actions>
        )}
      </EmptyState>
    </Paper>
  );
}
