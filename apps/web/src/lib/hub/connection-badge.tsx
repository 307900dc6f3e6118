import { Badge, Box, Tooltip } from '@mantine/core';
import { HubState } from './hub-client';
import { useHubState } from './index';

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

/** The live-connection indicator in the header: Connected, Connecting, Reconnecting or Offline. */
export function ConnectionBadge() {
  const { state } = useHubState();
  const look = LOOK[state];
  return (
    <Tooltip label={look.hint}>
      <Box
        component="span"
        role="status"
        aria-label={`Live updates: ${look.label}`}
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
          {look.label}
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
    </Tooltip>
  );
}
