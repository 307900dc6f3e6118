import '@mantine/charts/styles.css';
import '@mantine/dates/styles.css';
import { useState } from 'react';
import { Grid, Stack } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import type { MessageStatus } from '@wren/contracts';
import { paths } from '@/config/paths';
import { exportCampaign, useCampaignClicks, useResendFailed } from '@/features/campaigns';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useCurrentUser } from '@/lib/use-session';
import { useLiveCampaign } from '../api/use-live-campaign';
import { CampaignDetailSkeleton, CampaignLoadError } from '../components/campaign-detail-states';
import { CampaignHeaderCard } from '../components/campaign-header-card';
import { CampaignClicksChart } from '../components/campaign-clicks-chart';
import { CampaignMinuteChart } from '../components/campaign-minute-chart';
import { CampaignRecipientsCard } from '../components/campaign-recipients-card';
import { CampaignStats } from '../components/campaign-stats';
import { CampaignStatusChart } from '../components/campaign-status-chart';
import { formatNumber } from '@/lib/format';

/** One campaign, live from the hub's pushes: figures, status chart, per-minute chart, every recipient. */
export default function CampaignDetailPage() {
  const t = useT();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const zone = user?.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { campaign, c, timeline, hubConnected } = useLiveCampaign(id);
  const [status, setStatus] = useState<MessageStatus | null>(null);
  const resend = useResendFailed();
  const clicks = useCampaignClicks(id, c?.trackLinks === true);

  if (campaign.isError) return <CampaignLoadError error={campaign.error} />;
  if (!c) return <CampaignDetailSkeleton />;

  const doResend = async () => {
    try {
      const r = await resend.mutateAsync(c.id);
      toast.success(
        t('Resending to {{count}} failed recipients', { count: formatNumber(r.campaign.recipients) }),
      );
      void navigate(paths.reports.campaignDetail.getHref(r.campaign.id));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };
  const doExport = async () => {
    try {
      const name = await exportCampaign(c.id, status ?? undefined);
      toast.success(t('Exported {{file}}', { file: name }));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <Stack>
      <CampaignHeaderCard
        c={c}
        zone={zone}
        live={hubConnected}
        onResend={() => void doResend()}
        resending={resend.isPending}
        onExport={() => void doExport()}
      />
      <CampaignStats c={c} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <CampaignStatusChart c={c} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <CampaignMinuteChart points={timeline.data ?? []} />
        </Grid.Col>
      </Grid>
      {c.trackLinks && <CampaignClicksChart clicks={clicks.data} zone={zone} failed={clicks.isError} />}
      <CampaignRecipientsCard c={c} zone={zone} status={status} onStatusChange={setStatus} />
    </Stack>
  );
}
