import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { RatePlanDetail } from '@wren/contracts';
import { messageOf } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { useMakeDefaultPlan } from '../api/admin-api';

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
  const makeDefault = useMakeDefaultPlan();
  return (
    <Modal opened={opened} onClose={onClose} title="Change the default plan" centered>
      <Stack>
        <Text size="sm">
          Make <b>{p.name}</b> the default plan? Every account without a plan of its own is priced by it from
          now on, in {p.currency}.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button
            loading={makeDefault.isPending}
            onClick={() =>
              void makeDefault
                .mutateAsync(p.id)
                .then(() => {
                  toast.success(`"${p.name}" is now the default plan.`);
                  onClose();
                })
                .catch((e: unknown) => toast.error(messageOf(e)))
            }
          >
            Make default
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
