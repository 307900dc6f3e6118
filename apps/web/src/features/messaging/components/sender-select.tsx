import { Anchor, Loader, Select } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { useCan } from '@/lib/account-role';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import type { SenderChoices } from '../sender-options';

interface SenderSelectProps {
  choices: SenderChoices;
  value: string;
  onChange: (value: string) => void;
  loading: boolean;
  error?: string;
}

/** The sender ID the message comes from; the account default is preselected. */
export function SenderSelect({ choices, value, onChange, loading, error }: SenderSelectProps) {
  // Requesting one is sender-ids:manage's (a sender or developer chooses among the approved ones).
  const canRequest = useCan('sender-ids:manage');
  const t = useT();
  return (
    <Select
      label={t('Sender ID')}
      description={
        <>
          {t('The name or number recipients see.')}
          {canRequest && (
            <>
              {' '}
              <Anchor component={Link} to={paths.senderIds.getHref()} size="xs" underline="always">
                {t('Request a sender ID')}
              </Anchor>
            </>
          )}
        </>
      }
      data={choices.options}
      value={value}
      onChange={(v) => v && onChange(v)}
      allowDeselect={false}
      rightSection={loading ? <Loader size="xs" /> : undefined}
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
