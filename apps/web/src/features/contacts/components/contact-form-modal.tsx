import { useState } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { ContactDto } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { applySubmitError } from '@/lib/form-errors';
import { HttpError } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useSaveContact } from '../api/save-contact';
import { toFieldMap } from '../contact-fields';
import { CustomFieldRows } from './custom-field-rows';
import { useContactForm } from './use-contact-form';

interface ContactFormProps {
  groupId: string;
  contact: ContactDto | null;
  knownKeys: string[];
  onDone: () => void;
}

function ContactFormBody({ groupId, contact, knownKeys, onDone }: ContactFormProps) {
  const t = useT();
  const save = useSaveContact(groupId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useContactForm(contact);

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    const input = { phone: values.phone.trim(), name: values.name.trim(), fields: toFieldMap(values.fields) };
    try {
      const saved = await save.mutateAsync({ contactId: contact?.id, input });
      toast.success(
        contact
          ? t('{{name}} has been updated.', { name: saved.name || saved.phone })
          : t('{{name}} has been added.', { name: saved.name || saved.phone }),
      );
      onDone();
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        form.setFieldError('phone', error.message);
        return;
      }
      setFormError(applySubmitError(form, error));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={contact ? t('Edit contact') : t('Add contact')}>
      <Stack>
        <TextInput
          label={t('Phone number')}
          description={t('In international format, e.g. +14155550123')}
          type="tel"
          autoComplete="off"
          required
          data-autofocus
          {...form.getInputProps('phone')}
        />
        <TextInput
          label={t('Name')}
          placeholder={t('Ada Lovelace')}
          autoComplete="off"
          {...form.getInputProps('name')}
        />
        <CustomFieldRows form={form} knownKeys={knownKeys} />
        <FormAlert message={formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {contact ? t('Save changes') : t('Add contact')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface ContactFormModalProps {
  opened: boolean;
  groupId: string;
  /** The contact to edit; null to add one. */
  contact: ContactDto | null;
  /** Custom field names already in use in the group, offered as suggestions. */
  knownKeys: string[];
  onClose: () => void;
}

export function ContactFormModal({ opened, groupId, contact, knownKeys, onClose }: ContactFormModalProps) {
  const t = useT();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={contact ? t('Edit contact') : t('Add contact')}
      size="lg"
      centered
    >
      <ContactFormBody
        key={contact?.id ?? 'new'}
        groupId={groupId}
        contact={contact}
        knownKeys={knownKeys}
        onDone={onClose}
      />
    </Modal>
  );
}
