import { useState } from 'react';
import { useT } from '@/lib/i18n';
import { Can } from '@/components/can';
import { Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { SuppressionDto } from '@wren/contracts';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { FormAlert } from '@/components/form-alert';
import { IconTrash } from '@/components/icons';
import { RowAction } from '@/components/row-action';
import { applySubmitError } from '@/lib/form-errors';
import { toast } from '@/lib/toast';
import { useAddSuppression } from '../api/add-suppression';
import { useSuppressions } from '../api/get-suppressions';
import { useRemoveSuppression } from '../api/remove-suppression';
import { formatDateTime } from '../format';

const REASON_LABELS: Record<SuppressionDto['reason'], string> = {
  stop_keyword: 'Replied STOP',
  manual: 'Added by hand',
};

/** Numbers that opted out (STOP) or were added by hand: single sends skip them and do not charge. */
export function SuppressionsCard() {
  const t = useT();
  const list = useSuppressions();
  const add = useAddSuppression();
  const remove = useRemoveSuppression();
  const confirm = useModalTarget<string>();
  const [addError, setAddError] = useState<string | null>(null);
  const form = useForm({ initialValues: { phone: '' } });
  const items = list.data?.items ?? [];

  const submit = form.onSubmit(async (values) => {
    setAddError(null);
    try {
      const added = await add.mutateAsync(values);
      toast.success(t('{{phone}} will not receive messages', { phone: added.phone }));
      form.reset();
    } catch (error) {
      setAddError(applySubmitError(form, error));
    }
  });

  const confirmRemove = async () => {
    if (!confirm.target) return;
    try {
      await remove.mutateAsync(confirm.target);
      toast.success(t('{{phone}} can receive messages again', { phone: confirm.target }));
      confirm.close();
    } catch {
      // shown in the modal
    }
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="suppressed-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="suppressed-title">
            {t('Suppressed numbers')}
          </Title>
          <Text size="sm" c="dimmed">
            {t(
              'Numbers that replied STOP (or that you added) are skipped when you send, and not charged. START from the number removes it.',
            )}
          </Text>
        </div>
        <Can permission="contacts:write">
          <form onSubmit={(e) => void submit(e)} noValidate>
            <Group align="flex-start" gap="xs">
              <TextInput
                aria-label={t('Phone number to suppress')}
                placeholder="+14155550123"
                style={{ flex: 1, maxWidth: 260 }}
                {...form.getInputProps('phone')}
              />
              <Button type="submit" variant="default" loading={add.isPending}>
                {t('Suppress')}
              </Button>
            </Group>
          </form>
          <FormAlert message={addError} />
        </Can>
        {list.isPending ? (
          <Text size="sm" c="dimmed">
            {t('Loading suppressed numbers…')}
          </Text>
        ) : list.isError ? (
          <FormAlert
            message={t('Could not load suppressed numbers: {{error}}', { error: list.error.message })}
          />
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('No suppressed numbers.')}
          </Text>
        ) : (
          <Stack
            gap={4}
            component="ul"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label={t('Suppressed numbers')}
          >
            {items.map((s) => (
              <Group component="li" key={s.phone} justify="space-between" wrap="nowrap" gap="xs">
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm" ff="monospace">
                    {s.phone}
                  </Text>
                  <Badge size="sm" variant="light" color={s.reason === 'manual' ? 'gray' : 'red'}>
                    {t(REASON_LABELS[s.reason])}
                  </Badge>
                  <Text size="xs" c="dimmed" visibleFrom="sm">
                    {formatDateTime(s.createdAt)}
                  </Text>
                </Group>
                <Can permission="contacts:write">
                  <RowAction
                    tip={t('Remove')}
                    label={t('Remove {{phone}} from suppressed numbers', { phone: s.phone })}
                    danger
                    onClick={() => confirm.open(s.phone)}
                  >
                    <IconTrash />
                  </RowAction>
                </Can>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      <ConfirmDeleteModal
        opened={confirm.opened}
        title={t('Remove suppressed number')}
        confirmLabel={t('Remove')}
        loading={remove.isPending}
        error={remove.error?.message ?? null}
        onConfirm={() => void confirmRemove()}
        onClose={() => {
          remove.reset();
          confirm.close();
        }}
      >
        {t(
          '{{phone}} will receive your messages again. Only remove a number that asked to be contacted again.',
          { phone: confirm.target ?? '' },
        )}
      </ConfirmDeleteModal>
    </Card>
  );
}
