import { useRef, useState } from 'react';
import { Button, Group, Input, Modal, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  analyseSmsText,
  extractPlaceholders,
  saveTemplateSchema,
  type SaveTemplateInput,
  type TemplateDto,
} from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { applySubmitError } from '@/lib/form-errors';
import { HttpError } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { useCreateTemplate } from '../api/create-template';
import { useUpdateTemplate } from '../api/update-template';
import { BUILT_IN_PLACEHOLDERS, brokenPlaceholders, insertAt } from '../template-text';
import { PlaceholderText } from './placeholder-text';
import { SmsCounter } from './sms-counter';
import { useT } from '@/lib/i18n';

interface TemplateFormProps {
  /** The template to edit; null for a new one. */
  template: TemplateDto | null;
  onDone: () => void;
}

function TemplateForm({ template, onDone }: TemplateFormProps) {
  const t = useT();
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<SaveTemplateInput>({
    initialValues: { name: template?.name ?? '', text: template?.text ?? '' },
    // The server's own schema: a text it would refuse (more than 10 segments, say) cannot be saved.
    validate: zodResolver(saveTemplateSchema),
    validateInputOnBlur: true,
    // The length error shows as the user types or pastes, not only on blur or save.
    validateInputOnChange: ['text'],
  });
  const { text } = form.values;
  const info = analyseSmsText(text);
  const placeholders = extractPlaceholders(text);
  const broken = brokenPlaceholders(text);

  const insert = (name: string) => {
    const field = textRef.current;
    const start = field?.selectionStart ?? text.length;
    const end = field?.selectionEnd ?? start;
    const next = insertAt(text, `{{${name}}}`, start, end);
    form.setFieldValue('text', next.text);
    requestAnimationFrame(() => {
      field?.focus();
      field?.setSelectionRange(next.caret, next.caret);
    });
  };

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = template
        ? await update.mutateAsync({ id: template.id, ...values })
        : await create.mutateAsync(values);
      toast.success(
        template
          ? t('Template "{{name}}" has been updated.', { name: saved.name })
          : t('Template "{{name}}" has been saved.', { name: saved.name }),
      );
      onDone();
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        form.setFieldError('name', error.message);
        return;
      }
      setFormError(applySubmitError(form, error));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={template ? t('Edit template') : t('New template')}>
      <Stack>
        <TextInput
          label={t('Name')}
          placeholder={t('Order shipped')}
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Textarea
          ref={textRef}
          label={t('Message')}
          placeholder={t('Hi {{name}}, your order is on its way.', { name: '{{name}}' })}
          required
          autosize
          minRows={4}
          maxRows={10}
          {...form.getInputProps('text')}
        />
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            {t('Insert:')}
          </Text>
          {BUILT_IN_PLACEHOLDERS.map((name) => (
            <Button key={name} size="compact-xs" variant="light" color="grape" onClick={() => insert(name)}>
              {`{{${name}}}`}
            </Button>
          ))}
          <Text size="xs" c="dimmed">
            {t('Custom contact fields work too, e.g. {{city}}', { city: '{{city}}' })}
          </Text>
        </Group>
        <SmsCounter info={info} />
        {broken.length > 0 && (
          <Text size="xs" c="orange.8" role="status">
            {t('Not a placeholder: {{list}}. Use letters, digits and _ only, as in {{first_name}}.', {
              list: broken.join(', '),
              first_name: '{{first_name}}',
            })}
          </Text>
        )}
        <div>
          <Input.Label labelElement="div" mb={4} id="template-preview-label">
            {t('Preview')}
          </Input.Label>
          <Paper
            withBorder
            p="sm"
            radius="md"
            bg="var(--mantine-color-default-hover)"
            aria-labelledby="template-preview-label"
          >
            {text.trim() ? (
              <PlaceholderText text={text} size="sm" data-testid="template-preview" />
            ) : (
              <Text size="sm" c="dimmed">
                {t('Your message appears here, with placeholders highlighted.')}
              </Text>
            )}
          </Paper>
          {placeholders.length > 0 && (
            <Text size="xs" c="dimmed" mt={6} data-testid="placeholder-list">
              {t(
                'Placeholders: {{list}}. Each is filled in from the contact when you send a personalised SMS; the length above counts them as written.',
                { list: placeholders.join(', ') },
              )}
            </Text>
          )}
        </div>
        <FormAlert message={formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {template ? t('Save changes') : t('Save template')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface TemplateFormModalProps {
  opened: boolean;
  template: TemplateDto | null;
  onClose: () => void;
}

export function TemplateFormModal({ opened, template, onClose }: TemplateFormModalProps) {
  const t = useT();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={template ? t('Edit "{{name}}"', { name: template.name }) : t('New template')}
      size="lg"
      centered
    >
      <TemplateForm key={template?.id ?? 'new'} template={template} onDone={onClose} />
    </Modal>
  );
}
