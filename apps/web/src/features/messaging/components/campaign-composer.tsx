import '@mantine/dates/styles.css';
import { useT } from '@/lib/i18n';
import { Card, Divider, Grid, Stack } from '@mantine/core';
import { useCampaignComposer, type CampaignKind } from '../use-campaign-composer';
import { CampaignConfirmModal } from './campaign-confirm-modal';
import { CampaignEstimateCard } from './campaign-estimate-card';
import { CampaignMessageStep } from './campaign-message-step';
import { CampaignRecipientsStep } from './campaign-recipients-step';
import { overBalance, SendButton } from './send-button';
import { CampaignScheduleStep } from './campaign-schedule-step';
import { PersonalisedPreviewCard } from './personalised-preview-card';

/**
 * Bulk and personalised campaigns: recipients (groups, pasted numbers, a file), sender, text, a live
 * estimate from the server (nothing stored), a confirm step, then send now or at a time in a zone.
 */
export function CampaignComposer({ kind }: { kind: CampaignKind }) {
  const t = useT();
  const composer = useCampaignComposer(kind);
  const { personalised, filled, est } = composer;

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Card withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
          <form
            onSubmit={composer.review}
            noValidate
            aria-label={personalised ? t('Personalised SMS') : t('Bulk SMS')}
          >
            <Stack gap="lg">
              <CampaignRecipientsStep composer={composer} />
              <Divider />
              <CampaignMessageStep composer={composer} />
              <Divider />
              <CampaignScheduleStep composer={composer} />
              <SendButton
                label={composer.schedule ? t('Review and schedule') : t('Review and send')}
                over={overBalance(composer.costMinor, composer.balance.data)}
              />
            </Stack>
          </form>
        </Card>
        {filled && (est?.preview.length || composer.estimate.isFetching) ? (
          <PersonalisedPreviewCard preview={est?.preview ?? []} currency={composer.currency} />
        ) : null}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <CampaignEstimateCard composer={composer} />
      </Grid.Col>
      <CampaignConfirmModal composer={composer} />
    </Grid>
  );
}
