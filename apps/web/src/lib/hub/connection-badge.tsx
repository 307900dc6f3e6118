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
      <Badge
        variant="dot"
        color={look.color}
        size="md"
        radius="sm"
        role="status"
        aria-label={`Live updates: ${look.label}`}
        data-hub-state={state}
        styles={{ root: { textTransform: 'none', cursor: 'default' } }}
      >
        {/* On a phone only the coloured dot shows; the label stays for screen readers. */}
        <Box component="span" visibleFrom="sm">
          {look.label}
        </Box>
      </Badge>
    </Tooltip>
  );
}
