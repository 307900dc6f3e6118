import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createSenderIdSchema, type CreateSenderIdInput } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { applySubmitError } from '@/lib/form-errors';
import { HttpError } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { useCreateSenderId } from '../api/create-sender-id';
import { senderIdHint, senderIdRules } from '../sender-id-rules';
import { useT } from '@/lib/i18n';

/** An example sender ID, the same in every language (a brand name). */
const EXAMPLE_SENDER_ID = 'WrenShop';

const EMPTY: CreateSenderIdInput = { value: '', purpose: '', sampleMessage: '' };

interface RequestSenderIdModalProps {
  opened: boolean;
  onClose: () => void;
}

/** The "Request sender ID" form: value with a live length hint, purpose and a sample message. */
export function RequestSenderIdModal({ opened, onClose }: RequestSenderIdModalProps) {
  const create = useCreateSenderId();
  const t = useT();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CreateSenderIdInput>({
    initialValues: EMPTY,
    validate: zodResolver(createSenderIdSchema),
    validateInputOnBlur: true,
  });
  const hint = senderIdHint(form.values.value);

  const close = () => {
    form.reset();
    setFormError(null);
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const created = await create.mutateAsync(values);
      toast.success(
        created.status === 'approved'
          ? t('Sender ID "{{value}}" is approved and ready to use.', { value: created.value })
          : t('Sender ID "{{value}}" has been requested. We will review it shortly.', {
              value: created.value,
            }),
      );
      close();
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        form.setFieldError('value', error.message);
        return;
      }
      setFormError(applySubmitError(form, error));
    }
  });

  const valueProps = form.getInputProps('value');
  const liveError = hint.showNow ? hint.problem : null;

  return (
    <Modal opened={opened} onClose={close} title={t('Request sender ID')} size="lg" centered>
      <form onSubmit={submit} noValidate aria-label={t('Request sender ID')}>
        <Stack>
          <TextInput
            label={t('Sender ID')}
            placeholder={EXAMPLE_SENDER_ID}
            required
            data-autofocus
            autoComplete="off"
            spellCheck={false}
            description={
              <Text span size="xs" c={hint.used > hint.max ? 'red' : 'dimmed'} data-testid="sender-id-hint">
                {hint.text}
              </Text>
            }
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            {...valueProps}
            error={(valueProps.error as string | undefined) ?? liveError}
          />
          <Stack gap={2} data-testid="sender-id-rules" mt={-8}>
            {senderIdRules().map((rule) => (
              <Text key={rule} size="xs" c="dimmed">
                {rule}
              </Text>
            ))}
          </Stack>
          <Textarea
            label={t('Purpose')}
            description={t('What you will send from it and to whom, e.g. order updates for our customers')}
            required
            autosize
            minRows={2}
            maxRows={5}
            {...form.getInputProps('purpose')}
          />
          <Textarea
            label={t('Sample message')}
            description={t('A typical message, so the reviewer can check it matches the purpose')}
            required
            autosize
            minRows={3}
            maxRows={6}
            {...form.getInputProps('sampleMessage')}
          />
          <FormAlert message={formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('Send request')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
