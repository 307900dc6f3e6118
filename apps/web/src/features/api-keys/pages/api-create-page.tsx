import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import type { ApiKeyCreated } from '@wren/contracts';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useCreateApiKey } from '../api/api-keys';
import { KeyForm, toKeyInput } from '../components/key-form';
import { SecretOnce } from '@/components/secret-once';
import { rich } from '../components/rich';

export default function ApiCreatePage() {
  const t = useT();
  const create = useCreateApiKey();
  const navigate = useNavigate();
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  if (created) {
    return (
      <Stack gap="lg" maw={760}>
        <Text size="sm">
          {rich(t, '{{name}} is ready. Use it as {{header}} on {{path}}.', {
            name: <b>{created.key.name}</b>,
            header: <code>Authorization: Bearer &lt;key&gt;</code>,
            path: <code>/v1</code>,
          })}
        </Text>
        <SecretOnce
          secret={created.secret}
          doneLabel={t('I have copied it: view the key')}
          onDone={() => void navigate(paths.api.view.getHref(created.key.id))}
        />
      </Stack>
    );
  }
  return (
    <KeyForm
      submitLabel={t('Create API key')}
      onCancel={() => void navigate(paths.api.list.getHref())}
      onSubmit={async (values) => {
        const result = await create.mutateAsync(toKeyInput(values));
        setCreated(result);
        toast.success(t('API key "{{name}}" created.', { name: result.key.name }));
      }}
    />
  );
}
