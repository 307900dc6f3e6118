import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  EmptyState,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { TemplateDto } from '@wren/contracts';
import { Can } from '@/components/can';
import { IconBookmark } from '@/components/icons';
import { messageOf } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { useDeleteTemplate } from '../api/delete-template';
import { useTemplates } from '../api/get-templates';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { IconPlus, IconSearch } from '../components/icons';
import { TemplateCard } from '../components/template-card';
import { TemplateFormModal } from '../components/template-form-modal';
import { rich } from '@/components/common';
import { useT } from '@/lib/i18n';

function matches(template: TemplateDto, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || template.name.toLowerCase().includes(q) || template.text.toLowerCase().includes(q);
}

function CardsSkeleton() {
  const t = useT();
  return (
    <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} aria-busy="true" aria-label={t('Loading templates')}>
      {[0, 1, 2].map((i) => (
        <Card key={i} withBorder radius="md" padding="lg">
          <Skeleton height={16} width="50%" mb="xs" />
          <Skeleton height={10} width="30%" mb="lg" />
          <Skeleton height={12} mb={8} />
          <Skeleton height={12} mb={8} />
          <Skeleton height={12} width="70%" />
        </Card>
      ))}
    </SimpleGrid>
  );
}

export default function TemplatesPage() {
  const t = useT();
  const list = useTemplates();
  const remove = useDeleteTemplate();
  const editing = useModalTarget<TemplateDto | null>();
  const deleting = useModalTarget<TemplateDto>();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const items = (list.data ?? []).filter((item) => matches(item, query));

  const askDelete = (template: TemplateDto) => {
    setDeleteError(null);
    deleting.open(template);
  };

  const confirmDelete = async () => {
    const template = deleting.target;
    if (!template) return;
    try {
      await remove.mutateAsync(template.id);
      toast.success(t('Template "{{name}}" has been deleted.', { name: template.name }));
      deleting.close();
    } catch (error) {
      setDeleteError(messageOf(error));
    }
  };

  const hasAny = (list.data?.length ?? 0) > 0;

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Text c="dimmed" size="sm" maw={480}>
          {t(
            'Save messages you send often. Placeholders such as {{name}} are filled in from each contact when you send a personalised SMS.',
            { name: '{{name}}' },
          )}
        </Text>
        <Group gap="sm">
          {hasAny && (
            <TextInput
              aria-label={t('Search templates')}
              placeholder={t('Search templates')}
              leftSection={<IconSearch size={16} />}
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
              w={220}
            />
          )}
          <Can permission="templates:write">
            <Button leftSection={<IconPlus />} onClick={() => editing.open(null)}>
              {t('New template')}
            </Button>
          </Can>
        </Group>
      </Group>

      {list.isPending && <CardsSkeleton />}
      {list.isError && (
        <Alert color="red" variant="light" title={t('The templates could not be loaded')} role="alert">
          <Stack gap="sm" align="flex-start">
            {messageOf(list.error)}
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('Try again')}
            </Button>
          </Stack>
        </Alert>
      )}
      {list.isSuccess && !hasAny && (
        <Paper withBorder radius="md">
          <EmptyState
            variant="light"
            size="lg"
            py={48}
            icon={<IconBookmark size={32} />}
            title={t('No saved messages yet')}
            description={t('Write a message once and reuse it for single, bulk and personalised sends.')}
          >
            <Can permission="templates:write">
              <EmptyState.Actions>
                <Button leftSection={<IconPlus />} onClick={() => editing.open(null)}>
                  {t('Create your first template')}
                </Button>
              </EmptyState.Actions>
            </Can>
          </EmptyState>
        </Paper>
      )}
      {hasAny && items.length === 0 && (
        <Text c="dimmed" ta="center" py="xl">
          {t('No template matches “{{query}}”.', { query: query.trim() })}
        </Text>
      )}
      {items.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
          {items.map((template) => (
            <TemplateCard key={template.id} template={template} onEdit={editing.open} onDelete={askDelete} />
          ))}
        </SimpleGrid>
      )}

      <TemplateFormModal opened={editing.opened} template={editing.target} onClose={editing.close} />
      <ConfirmDeleteModal
        opened={deleting.opened}
        title={t('Delete template')}
        confirmLabel={t('Delete template')}
        loading={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={deleting.close}
      >
        {rich(
          t,
          'Delete the template {{name}}? Messages already sent are not affected. This cannot be undone.',
          { name: <b>{deleting.target?.name}</b> },
        )}
      </ConfirmDeleteModal>
    </Stack>
  );
}
