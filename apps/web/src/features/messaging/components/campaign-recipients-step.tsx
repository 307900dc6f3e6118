import { Alert, Loader, MultiSelect, SegmentedControl, Textarea, Title } from '@mantine/core';
import { RecipientsUpload, useCampaignGroups } from '@/features/campaigns';
import type { CampaignComposerState } from '../use-campaign-composer';
import { formatNumber } from '@/lib/format';

/**
 * Who gets the campaign: contact groups, pasted numbers and an uploaded file (bulk); a file or
 * contact groups (personalised), whose contacts fill {{name}}, {{phone}} and their custom fields.
 */
export function CampaignRecipientsStep({ composer: c }: { composer: CampaignComposerState }) {
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
        Recipients
      </Title>
      {c.errors.recipients && (
        <Alert color="red" variant="light" role="alert">
          {c.errors.recipients}
        </Alert>
      )}
      {c.personalised && groups.allowed && (
        <SegmentedControl
          aria-label="Recipients from"
          data={[
            { value: 'file', label: 'File' },
            { value: 'groups', label: 'Contact group' },
          ]}
          value={c.recipientSource}
          onChange={(v) => c.setRecipientSource(v)}
          maw={320}
        />
      )}
      {showGroups && (
        <MultiSelect
          label="Contact groups"
          description={
            c.personalised
              ? 'Each contact gets the message filled from its name, phone and custom fields.'
              : 'Everyone in the chosen groups; a number in several groups gets one message. {{name}} and custom fields are filled from each contact.'
          }
          placeholder={groupOptions.length ? 'Choose groups' : 'No contact groups yet'}
          data={groupOptions}
          value={c.groupIds}
          onChange={c.setGroupIds}
          searchable
          clearable
          nothingFoundMessage="No group by that name"
          rightSection={groups.isPending ? <Loader size="xs" /> : undefined}
          error={c.errors.groupIds}
        />
      )}
      {!c.personalised && (
        <Textarea
          label="Paste numbers"
          description="One per line, or separated by commas. Numbers without a country code are read as your country's."
          placeholder={'+14155550123\n+447911123456'}
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
          label={c.personalised ? 'Recipients file' : 'Upload a file'}
          description={
            c.personalised
              ? 'CSV or XLSX with a header row: a phone column and the columns your message uses.'
              : 'CSV, TXT or XLSX with a column of phone numbers, up to 20 MB.'
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
