import { Badge, Button, NavLink, Paper, Stack } from '@mantine/core';
import { IconPlus } from '@/components/icons';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useRatePlans } from '../api/admin-api';
import { EmptyBlock, ErrorBlock, LoadingBlock, SectionHeader } from './common';

interface RatePlanListProps {
  current: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
}

/** Every rate plan, the default one marked; picking one opens it beside the list. */
export function RatePlanList({ current, onSelect, onNew }: RatePlanListProps) {
  const t = useT();
  const plans = useRatePlans();
  return (
    <Paper withBorder radius="md">
      <SectionHeader title={t('Rate plans')}>
        <Button size="xs" leftSection={<IconPlus />} onClick={() => onNew()}>
          {t('New plan')}
        </Button>
      </SectionHeader>
      {plans.isPending && <LoadingBlock label={t('Loading plans…')} />}
      {plans.isError && <ErrorBlock message={messageOf(plans.error)} onRetry={() => void plans.refetch()} />}
      {plans.data?.length === 0 && <EmptyBlock title={t('No rate plans')} />}
      <Stack gap={0} pb="xs">
        {plans.data?.map((p) => (
          <NavLink
            key={p.id}
            component="button"
            active={p.id === current}
            color="gray"
            onClick={() => onSelect(p.id)}
            label={p.name}
            description={`${p.currency} · ${t('{{count}} prices', { count: p.priceCount })} · ${t(
              '{{count}} accounts',
              { count: p.accountCount },
            )}`}
            rightSection={
              p.isDefault ? (
                <Badge size="xs" color="green" variant="dot">
                  {t('Default')}
                </Badge>
              ) : undefined
            }
          />
        ))}
      </Stack>
    </Paper>
  );
}
