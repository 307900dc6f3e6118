import { Badge, Tooltip } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { FAST_REFRESH_MS } from '../refresh-interval';
import classes from './live-indicator.module.css';

/** Shown while the list refreshes itself quickly because some messages are on their way. */
export function LiveIndicator({ intervalMs }: { intervalMs: number | false }) {
  const t = useT();
  if (intervalMs !== FAST_REFRESH_MS) return null;
  return (
    <Tooltip
      label={t('Statuses refresh every {{seconds}} s while messages are on their way', {
        seconds: intervalMs / 1000,
      })}
      withArrow
    >
      <Badge variant="dot" color="teal" className={classes.live} tabIndex={0}>
        {t('Live')}
      </Badge>
    </Tooltip>
  );
}
