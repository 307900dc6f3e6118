import { Alert, Skeleton } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { messageOf } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { useApiKey, useUpdateApiKey } from '../api/api-keys';
import { KeyForm, toKeyInput } from '../components/key-form';

export default function ApiEditPage() {
  const { id = '' } = useParams();
  const key = useApiKey(id);
  const update = useUpdateApiKey();
  const navigate = useNavigate();
  if (key.isPending) return <Skeleton height={480} maw={760} radius="md" />;
  if (key.isError) {
    return (
      <Alert color="red" title="Could not load this API key" maw={760}>
        {messageOf(key.error)}
      </Alert>
    );
  }
  if (key.data.status === 'revoked') {
    return (
      <Alert color="yellow" title="This key is revoked" maw={760}>
        A revoked key cannot be changed. Create a new key instead.
      </Alert>
    );
  }
  return (
    <KeyForm
      initial={key.data}
      submitLabel="Save changes"
      onCancel={() => void navigate(paths.api.view.getHref(id))}
      onSubmit={async (values) => {
        await update.mutateAsync({ id, patch: toKeyInput(values) });
        toast.success('API key saved.');
        void navigate(paths.api.view.getHref(id));
      }}
    />
  );
}
