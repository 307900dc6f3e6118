import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import type { SmppAccountCreated } from '@wren/contracts';
import { useNavigate } from 'react-router';
import { InlineCode } from '@/components/inline-code';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useCreateSmppAccount } from '../api/smpp-accounts';
import { PasswordOnce } from '../components/password-once';
import { SmppForm, toSmppInput } from '../components/smpp-form';

export default function SmppCreatePage() {
  const t = useT();
  const create = useCreateSmppAccount();
  const navigate = useNavigate();
  const [created, setCreated] = useState<SmppAccountCreated | null>(null);

  if (created) {
    return (
      <Stack gap="lg" maw={760}>
        <Text size="sm">
          <b>{created.account.name}</b>{' '}
          <InlineCode
            text={t('is ready: bind with system_id `{{systemId}}`.', { systemId: created.account.systemId })}
          />
        </Text>
        <PasswordOnce
          systemId={created.account.systemId}
          password={created.password}
          doneLabel={t('I have copied it: view the account')}
          onDone={() => void navigate(paths.smpp.view.getHref(created.account.id))}
        />
      </Stack>
    );
  }
  return (
    <SmppForm
      submitLabel={t('Create SMPP account')}
      onCancel={() => void navigate(paths.smpp.list.getHref())}
      onSubmit={async (values) => {
        const result = await create.mutateAsync(toSmppInput(values));
        setCreated(result);
        toast.success(t('SMPP account "{{systemId}}" created.', { systemId: result.account.systemId }));
      }}
    />
  );
}
