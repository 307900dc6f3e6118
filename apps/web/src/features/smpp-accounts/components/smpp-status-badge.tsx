import { Badge, useComputedColorScheme } from '@mantine/core';
import type { SmppAccountDto } from '@wren/contracts';
import { useT } from '@/lib/i18n';

export function SmppStatusBadge({ status }: { status: SmppAccountDto['status'] }) {
  const t = useT();
  const scheme = useComputedColorScheme('light');
  const active = status === 'active';
  return (
    // Never narrower than its word (a squeezed table column would cut it short). Mantine's light
    // teal text (teal 6) is 2.5:1 on its background and teal 9 4.3:1; this green is 6:1 (teal 3 in
    // the dark meets AA as it is).
    <Badge
      color={active ? 'teal' : 'gray'}
      variant="light"
      miw="max-content"
      c={active ? (scheme === 'dark' ? 'teal.3' : '#05654a') : undefined}
    >
      {active ? t('Active') : t('Disabled')}
    </Badge>
  );
}
