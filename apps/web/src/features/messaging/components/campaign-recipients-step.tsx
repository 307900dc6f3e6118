import { Alert, Loader, MultiSelect, SegmentedControl, Textarea, Title } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { RecipientsUpload, useCampaignGroups } from '@/features/campaigns';
import type { CampaignComposerState } from '../use-campaign-composer';
import { formatNumber } from '@/lib/format';

/**
 * Who gets the campaign: contact groups, pasted numbers and an uploaded file (bulk); a file or
 * contact groups (personalised), whose contacts fill {{name}}, {{phone}} and their custom fields.
 */
export function CampaignRecipientsStep({ composer: c }: { composer: CampaignComposerState }) {
  const t = useT();
  const groups = useCampaignGroups();
  const groupOptions = (groups.data ?? []).map((g) => ({
    value: g.id,
    label: `${g.name} (${formatNumber(g.contactCount)})`,
  }));
  const showGroups = groups.allowed && (!c.personalised || c.recipientSource === 'groups');
  const showFile = !c.personalised || c.recipientSource === 'file';

  return (
    <>
      <Title order={2} size="h4">
        {t('Recipients')}
      </Title>
      {c.errors.recipients && (
        <Alert color="red" variant="light" role="alert">
          {c.errors.recipients}
        </Alert>
      )}
      {c.personalised && groups.allowed && (
        <SegmentedControl
          aria-label={t('Recipients from')}
          data={[
            { value: 'file', label: t('File') },
            { value: 'groups', label: t('Contact group') },
          ]}
          value={c.recipientSource}
          onChange={(v) => c.setRecipientSource(v)}
          maw={320}
        />
      )}
      {showGroups && (
        <MultiSelect
          label={t('Contact groups')}
          description={
            c.personalised
              ? t('Each contact gets the message filled from its name, phone and custom fields.')
              : t(
                  'Everyone in the chosen groups; a number in several groups gets one message. {{name}} and custom fields are filled from each contact.',
                  { name: '{{name}}' },
                )
          }
          placeholder={groupOptions.length ? t('Choose groups') : t('No contact groups yet')}
          data={groupOptions}
          value={c.groupIds}
          onChange={c.setGroupIds}
          searchable
          clearable
          nothingFoundMessage={t('No group by that name')}
          rightSection={groups.isPending ? <Loader size="xs" /> : undefined}
          error={c.errors.groupIds}
        />
      )}
      {!c.personalised && (
        <Textarea
          label={t('Paste numbers')}
          description={t(
            "One per line, or separated by commas. Numbers without a country code are read as your country's.",
          )}
          placeholder={'+14155550123\n+447911123456'}
          // Numbers read left to right in every language (Arabic too).
          dir="ltr"
          autosize
          minRows={3}
          maxRows={8}
          value={c.numbers}
          onChange={(e) => c.setNumbers(e.currentTarget.value)}
          error={c.errors.numbers}
        />
      )}
      {showFile && (
        <RecipientsUpload
          label={c.personalised ? t('Recipients file') : t('Upload a file')}
          description={
            c.personalised
              ? t('CSV or XLSX with a header row: a phone column and the columns your message uses.')
              : t('CSV, TXT or XLSX with a column of phone numbers, up to 20 MB.')
          }
          upload={c.upload}
          onUpload={c.setUpload}
          phoneColumn={c.phoneColumn}
          onPhoneColumn={c.setPhoneColumn}
          error={c.errors.uploadId ?? c.errors.phoneColumn}
        />
      )}
    </>
  );
}
