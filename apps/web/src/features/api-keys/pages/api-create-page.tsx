import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import type { ApiKeyCreated } from '@wren/contracts';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { toast } from '@/lib/toast';
import { useCreateApiKey } from '../api/api-keys';
import { KeyForm, toKeyInput } from '../components/key-form';
import { SecretOnce } from '@/components/secret-once';

export default function ApiCreatePage() {
  const create = useCreateApiKey();
  const navigate = useNavigate();
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  if (created) {
    return (
      <Stack gap="lg" maw={760}>
        <Text size="sm">
          <b>{created.key.name}</b> is ready. Use it as <code>Authorization: Bearer &lt;key&gt;</code> on{' '}
          <code>/v1</code>.
        </Text>
        <SecretOnce
          secret={created.secret}
          doneLabel="I have copied it: view the key"
          onDone={() => void navigate(paths.api.view.getHref(created.key.id))}
        />
      </Stack>
    );
  }
  return (
    <KeyForm
      submitLabel="Create API key"
      onCancel={() => void navigate(paths.api.list.getHref())}
      onSubmit={async (values) => {
        const result = await create.mutateAsync(toKeyInput(values));
        setCreated(result);
        toast.success(`API key "${result.key.name}" created.`);
      }}
    />
  );
}
