import { Alert, Button, Group, Skeleton } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useApiKey, useUpdateApiKey } from '../api/api-keys';
import { KeyForm, toKeyInput } from '../components/key-form';
import { KeyLoadError } from '../components/key-load-error';

export default function ApiEditPage() {
  const t = useT();
  const { id = '' } = useParams();
  const key = useApiKey(id);
  const update = useUpdateApiKey();
  const navigate = useNavigate();
  if (key.isPending) return <Skeleton height={480} maw={760} radius="md" />;
  if (key.isError) return <KeyLoadError error={key.error} />;
  if (key.data.status === 'revoked') {
    return (
      <Alert color="yellow" title={t('This key is revoked')} maw={760}>
        {t('A revoked key cannot be changed. Create a new key instead.')}
        <Group gap="xs" mt="sm">
          <Button component={Link} to={paths.api.view.getHref(id)} size="xs" variant="default">
            {t('View the key')}
          </Button>
          <Button component={Link} to={paths.api.create.getHref()} size="xs" variant="light">
            {t('Create API key')}
          </Button>
        </Group>
      </Alert>
    );
  }
  return (
    <KeyForm
      initial={key.data}
      submitLabel={t('Save changes')}
      onCancel={() => void navigate(paths.api.view.getHref(id))}
      onSubmit={async (values) => {
        await update.mutateAsync({ id, patch: toKeyInput(values) });
        toast.success(t('API key saved.'));
        void navigate(paths.api.view.getHref(id));
      }}
    />
  );
}
