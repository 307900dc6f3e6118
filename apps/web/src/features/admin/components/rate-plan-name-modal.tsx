import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { FormAlert } from '@/components/form-alert';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';

/** Names a rate plan (new, renamed or copied); a new one also takes its currency. */
export function RatePlanNameModal(props: {
  opened: boolean;
  title: string;
  label: string;
  initial: string;
  withCurrency?: boolean;
  loading: boolean;
  onSubmit: (name: string, currency: string) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const [name, setName] = useState(props.initial);
  const [currency, setCurrency] = useState('USD');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.opened) {
      setName(props.initial);
      setError(null);
    }
  }, [props.opened, props.initial]);
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          props
            .onSubmit(name.trim(), currency.trim().toUpperCase())
            .catch((err: unknown) => setError(messageOf(err)));
        }}
      >
        <Stack>
          <TextInput
            label={props.label}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
            required
          />
          {props.withCurrency && (
            <TextInput
              label={t('Currency')}
              description={t('Three-letter code')}
              value={currency}
              maxLength={3}
              onChange={(e) => setCurrency(e.currentTarget.value)}
            />
          )}
          <FormAlert message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={props.loading}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
