import type { ComponentPropsWithRef } from 'react';
import { Badge, Box } from '@mantine/core';
import { Deferred } from '@/components/deferred';
import { HubState } from './hub-client';
import { useHubState } from './index';
import { useT } from '../i18n';

const LOOK: Record<HubState, { label: string; color: string; hint: string }> = {
  [HubState.Connected]: { label: 'Connected', color: 'teal', hint: 'Connected: figures update live' },
  [HubState.Connecting]: { label: 'Connecting', color: 'yellow', hint: 'Connecting to server…' },
  [HubState.Reconnecting]: {
    label: 'Reconnecting',
    color: 'orange',
    hint: 'Connection lost, reconnecting…',
  },
  [HubState.Disconnecting]: { label: 'Offline', color: 'gray', hint: 'Not connected' },
  [HubState.Disconnected]: { label: 'Offline', color: 'gray', hint: 'Not connected: no live updates' },
};

/** The hint a tooltip shows over the badge. */
export const useConnectionHint = (): string => useT()(LOOK[useHubState().state].hint);

/** The badge itself; a tooltip around it passes its ref and event handlers through `props`. */
export function ConnectionBadgeView(props: ComponentPropsWithRef<'span'>) {
  const { state } = useHubState();
  const look = LOOK[state];
  const t = useT();
  return (
    <Box
      {...props}
      component="span"
      role="status"
      aria-label={t('Live updates: {{state}}', { state: t(look.label) })}
      data-hub-state={state}
      style={{ display: 'inline-flex', alignItems: 'center', cursor: 'default' }}
    >
      <Badge
        variant="dot"
        color={look.color}
        size="md"
        radius="sm"
        visibleFrom="sm"
        aria-hidden
        styles={{ root: { textTransform: 'none', cursor: 'default' } }}
      >
        {t(look.label)}
      </Badge>
      {/* On a phone a plain coloured dot (a pill without its label would look empty). */}
      <Box
        component="span"
        hiddenFrom="sm"
        aria-hidden
        w={10}
        h={10}
        mx={6}
        style={{ borderRadius: '50%', background: `var(--mantine-color-${look.color}-6)` }}
      />
    </Box>
  );
}

/**
 * The live-connection indicator in the header: Connected, Connecting, Reconnecting or Offline. Its
 * hint (a tooltip) loads when the pointer first reaches it.
 */
export function ConnectionBadge() {
  return (
    <Deferred load={() => import('./connection-badge-tooltip').then((m) => m.ConnectionBadgeWithHint)}>
      <ConnectionBadgeView />
    </Deferred>
  );
}
