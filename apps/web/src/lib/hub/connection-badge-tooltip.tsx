import { Tooltip } from '@mantine/core';
import type { DeferredComponentProps } from '@/components/deferred';
import { ConnectionBadgeView, useConnectionHint } from './connection-badge';

export function ConnectionBadgeWithHint({ hovered }: DeferredComponentProps) {
  return (
    <Tooltip label={useConnectionHint()} defaultOpened={hovered}>
      <ConnectionBadgeView />
    </Tooltip>
  );
}
