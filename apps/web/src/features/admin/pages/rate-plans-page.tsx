import { useState } from 'react';
import { Grid } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { useCreatePlan, useRatePlans } from '../api/admin-api';
import { EmptyBlock } from '../components/common';
import { RatePlanEditor } from '../components/rate-plan-editor';
import { RatePlanList } from '../components/rate-plan-list';
import { RatePlanNameModal } from '../components/rate-plan-name-modal';

/** Rate plans: the list on the left, the chosen plan (the default one at first) on the right. */
export default function RatePlansPage() {
  const t = useT();
  const plans = useRatePlans();
  const create = useCreatePlan();
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const current = selected ?? plans.data?.find((p) => p.isDefault)?.id ?? plans.data?.[0]?.id ?? null;

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <RatePlanList current={current} onSelect={setSelected} onNew={() => setCreating(true)} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        {current ? (
          <RatePlanEditor key={current} id={current} onDeleted={() => setSelected(null)} />
        ) : (
          !plans.isPending && <EmptyBlock title={t('Create a plan to set prices')} />
        )}
      </Grid.Col>
      <RatePlanNameModal
        opened={creating}
        title={t('New rate plan')}
        label={t('Name')}
        initial=""
        withCurrency
        loading={create.isPending}
        onSubmit={async (name, currency) => {
          const plan = await create.mutateAsync({ name, currency });
          setSelected(plan.id);
          setCreating(false);
        }}
        onClose={() => setCreating(false)}
      />
    </Grid>
  );
}
