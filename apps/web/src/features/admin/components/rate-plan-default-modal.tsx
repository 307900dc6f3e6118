import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { RatePlanDetail } from '@wren/contracts';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useMakeDefaultPlan } from '../api/admin-api';
import { rich } from './common';

/** Asks before a rate plan becomes the default (the plan of every account without its own). */
export function RatePlanDefaultModal({
  plan: p,
  opened,
  onClose,
}: {
  plan: RatePlanDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const t = useT();
  const makeDefault = useMakeDefaultPlan();
  return (
    <Modal opened={opened} onClose={onClose} title={t('Change the default plan')} centered>
      <Stack>
        <Text size="sm">
          {rich(
            t,
            'Make {{name}} the default plan? Every account without a plan of its own is priced by it from now on, in {{currency}}.',
            { name: <b>{p.name}</b>, currency: p.currency },
          )}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('Cancel')}
          </Button>
          <Button
            loading={makeDefault.isPending}
            onClick={() =>
              void makeDefault
                .mutateAsync(p.id)
                .then(() => {
                  toast.success(t('"{{name}}" is now the default plan.', { name: p.name }));
                  onClose();
                })
                .catch((e: unknown) => toast.error(messageOf(e)))
            }
          >
            {t('Make default')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
