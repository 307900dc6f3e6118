import { Badge, Tooltip } from '@mantine/core';
import classes from './live-indicator.module.css';

/** Shown while the list refreshes itself because some messages are still on their way. */
export function LiveIndicator({ intervalMs }: { intervalMs: number | false }) {
  if (!intervalMs) return null;
  return (
    <Tooltip
      label={`Statuses refresh every ${intervalMs / 1000} s while messages are on their way`}
      withArrow
    >
      <Badge variant="dot" color="teal" className={classes.live} tabIndex={0}>
        Live
      </Badge>
    </Tooltip>
  );
}
