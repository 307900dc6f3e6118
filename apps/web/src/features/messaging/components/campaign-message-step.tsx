import { Checkbox, TextInput, Title } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { useGroupFields } from '../api/use-group-fields';
import { unknownColumnsText, type CampaignComposerState } from '../use-campaign-composer';
import { MessageField } from './message-field';
import { PersonalisedMessageField } from './personalised-message-field';
import { SenderSelect } from './sender-select';

/** What is sent: the campaign's name, the sender and the text (a template when personalised). */
export function CampaignMessageStep({ composer: c }: { composer: CampaignComposerState }) {
  const t = useT();
  // From contact groups, the columns are the contacts' name, phone and custom fields.
  const groupFields = useGroupFields(c.personalised && c.recipientSource === 'groups' ? c.chosenGroups : []);
  const columns =
    c.personalised && c.recipientSource === 'groups' ? groupFields : (c.upload?.columns ?? null);
  return (
    <>
      <Title order={2} size="h4">
        {t('Message')}
      </Title>
      <TextInput
        label={t('Campaign name')}
        description={t('Optional; shown in the campaign report.')}
        placeholder={t('Spring sale')}
        maxLength={100}
        value={c.name}
        onChange={(e) => c.setName(e.currentTarget.value)}
      />
      <SenderSelect
        choices={c.choices}
        value={c.sender}
        onChange={c.setSenderId}
        loading={c.sendersLoading}
        error={c.errors.senderId}
      />
      {c.personalised ? (
        <PersonalisedMessageField
          value={c.text}
          onChange={c.setText}
          columns={columns}
          from={c.recipientSource}
          error={
            c.errors.text ??
            (c.unknownPlaceholders.length ? unknownColumnsText(c.unknownPlaceholders) : undefined)
          }
        />
      ) : (
        <MessageField
          value={c.text}
          onChange={c.setText}
          info={c.info}
          counted={c.sentText}
          cost={c.costMinor !== null && c.text ? formatMoney(c.costMinor, c.currency) : null}
          error={c.errors.text}
        />
      )}
      {(c.hasLinks || c.personalised) && (
        <Checkbox
          label={t('Track link clicks')}
          description={
            c.personalised
              ? t(
                  'Each link in a row’s text becomes a short link of that recipient’s own; the report counts the clicks. The length, parts and cost include the short link.',
                )
              : t(
                  'Each link becomes a short link of each recipient’s own; the report counts the clicks. The length, parts and cost include the short link.',
                )
          }
          checked={c.trackLinks}
          onChange={(e) => c.setTrackLinks(e.currentTarget.checked)}
        />
      )}
    </>
  );
}
