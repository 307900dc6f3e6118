import { useState } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createGroupSchema, type GroupDto, type GroupInput } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { applySubmitError } from '@/lib/form-errors';
import { HttpError } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { useCreateGroup } from '../api/create-group';
import { useRenameGroup } from '../api/rename-group';

interface GroupNameFormProps {
  /** The group to rename; null to create one. */
  group: GroupDto | null;
  onDone: (saved: GroupDto | null) => void;
}

function GroupNameForm({ group, onDone }: GroupNameFormProps) {
  const t = useT();
  const create = useCreateGroup();
  const rename = useRenameGroup();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<GroupInput>({
    initialValues: { name: group?.name ?? '' },
    validate: zodResolver(createGroupSchema),
  });

  const submit = form.onSubmit(async ({ name }) => {
    setFormError(null);
    if (group && name.trim() === group.name) return onDone(null);
    try {
      const saved = group
        ? await rename.mutateAsync({ id: group.id, name })
        : await create.mutateAsync({ name });
      toast.success(
        group
          ? t('The group is now called "{{name}}".', { name: saved.name })
          : t('Group "{{name}}" has been created.', { name: saved.name }),
      );
      onDone(saved);
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        form.setFieldError('name', error.message);
        return;
      }
      setFormError(applySubmitError(form, error));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={group ? t('Rename group') : t('New group')}>
      <Stack>
        <TextInput
          label={t('Group name')}
          placeholder={t('Newsletter subscribers')}
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        <FormAlert message={formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onDone(null)}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || rename.isPending}>
            {group ? t('Rename') : t('Create group')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface GroupNameModalProps {
  opened: boolean;
  group: GroupDto | null;
  onClose: () => void;
  /** Called after a group was created (not after a rename). */
  onCreated?: (group: GroupDto) => void;
}

/** Creates a group, or renames one. */
export function GroupNameModal({ opened, group, onClose, onCreated }: GroupNameModalProps) {
  const t = useT();
  const done = (saved: GroupDto | null) => {
    onClose();
    if (saved && !group) onCreated?.(saved);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={group ? t('Rename group') : t('New group')} centered>
      <GroupNameForm key={group?.id ?? 'new'} group={group} onDone={done} />
    </Modal>
  );
}
