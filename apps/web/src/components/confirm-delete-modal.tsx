import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { FormAlert } from '@/components/form-alert';
import { useT } from '@/lib/i18n';

/**
 * The item a modal acts on. The item outlives `opened`, so the modal keeps its text while it
 * fades out after closing.
 */
export function useModalTarget<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [opened, setOpened] = useState(false);
  return {
    target,
    opened,
    open: (item: T) => {
      setTarget(item);
      setOpened(true);
    },
    close: () => setOpened(false),
  };
}

interface ConfirmDeleteModalProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  loading: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before a delete; Cancel has the focus, so Enter never deletes by accident. */
export function ConfirmDeleteModal(props: ConfirmDeleteModalProps) {
  const { opened, title, children, confirmLabel, loading, error, onConfirm, onClose } = props;
  const t = useT();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        <Text size="sm" component="div">
          {children}
        </Text>
        <FormAlert message={error ?? null} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('Cancel')}
          </Button>
          <Button color="red" onClick={onConfirm} loading={loading}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
