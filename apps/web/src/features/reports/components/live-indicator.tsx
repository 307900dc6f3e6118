import { Badge, Tooltip } from '@mantine/core';
import { FAST_REFRESH_MS } from '../refresh-interval';
import classes from './live-indicator.module.css';

/** Shown while the list refreshes itself quickly because some messages are on their way. */
export function LiveIndicator({ intervalMs }: { intervalMs: number | false }) {
  if (intervalMs !== FAST_REFRESH_MS) return null;
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
