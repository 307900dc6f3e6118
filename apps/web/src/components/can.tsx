import type { ReactNode } from 'react';
import { Button, EmptyState, Paper } from '@mantine/core';
import { Link } from 'react-router';
import type { PermissionDeclaration } from '@wren/contracts';
import { paths } from '@/config/paths';
import { cantSentence, useAccountRole, useCan } from '@/lib/account-role';
import { IconLock } from './icons';
import { useT } from '@/lib/i18n';

interface CanProps {
  /** What the children need of the member's role (contracts' PERMISSIONS). */
  permission: PermissionDeclaration;
  children: ReactNode;
  /** Shown instead when the role lacks it (nothing by default: the action is hidden). */
  fallback?: ReactNode;
}

/** Renders its children only for a role with `permission` (see lib/account-role.ts `useCan`). */
export function Can({ permission, children, fallback = null }: CanProps) {
  return useCan(permission) ? children : fallback;
}

/**
 * What a page the member's role cannot use shows instead of its content (and instead of the
 * refused requests it would make): "Your role (Billing) can't …", and a way back.
 */
export function NoPermission({ permission }: { permission: PermissionDeclaration }) {
  const role = useAccountRole();
  const t = useT();
  return (
    <Paper withBorder radius="md" p="xl" data-testid="no-permission">
      <EmptyState
        variant="light"
        size="lg"
        icon={<IconLock size={32} />}
        title={cantSentence(role, permission)}
        description={t('An owner or admin of this account can change your role on the Team page.')}
        py="xl"
      >
        <EmptyState.Actions>
          <Button component={Link} to={paths.dashboard.getHref()} variant="default">
            {t('Back to dashboard')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}
