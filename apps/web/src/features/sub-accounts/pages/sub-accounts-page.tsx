import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  Alert,
  Anchor,
  Button,
  Card,
  EmptyState,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { createSubAccountSchema, type CreateSubAccountInput } from '@wren/contracts';
import { IconPlus, IconUsers } from '@/components/icons';
import { FormAlert } from '@/components/form-alert';
import { paths } from '@/config/paths';
import { applySubmitError } from '@/lib/form-errors';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { useAccountStatus, useCreateSubAccount, useSubAccounts } from '../api/sub-accounts';
import { translate, useT } from '@/lib/i18n';

const errorText = (e: unknown) => (e instanceof Error ? e.message : translate('Something went wrong'));

function CreateDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateSubAccount();
  const t = useT();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CreateSubAccountInput>({
    initialValues: { name: '', ownerEmail: '' },
    validate: zodResolver(createSubAccountSchema),
  });
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
        t('{{name}} was created; {{email}} is invited as its owner', {
          name: created.name,
          email: values.ownerEmail,
        }),
      );
      close();
      void navigate(paths.subAccount.getHref(created.id));
    } catch (error) {
      setFormError(applySubmitError(form, error));
    }
  });
  return (
    <Modal opened={opened} onClose={close} title={t('New sub-account')} centered>
      <form onSubmit={submit} noValidate aria-label={t('New sub-account')}>
        <Stack gap="sm">
          <FormAlert message={formError} />
          <TextInput label={t('Name')} required data-autofocus {...form.getInputProps('name')} />
          <TextInput
            label={t("Owner's email")}
            description={t("They get an invite to sign in as the sub-account's owner.")}
            type="email"
            required
            {...form.getInputProps('ownerEmail')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('Create sub-account')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Settings → Sub-accounts: a reseller's child accounts with their balance and status. */
export default function SubAccountsPage() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors.at(-1) ?? null;
  const list = useSubAccounts(cursor);
  const status = useAccountStatus();
  const [creating, setCreating] = useState(false);
  const t = useT();

  if (status.data?.isChild)
    return (
      <Alert color="blue" title={t('Sub-accounts are one level deep')}>
        {t('This account is managed by another account, so it cannot have sub-accounts of its own.')}
      </Alert>
    );

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Text c="dimmed" size="sm" maw={560}>
          {t(
            'Accounts you manage for your clients: each has its own balance, members, sender IDs, keys and logs. You move balance to them, set their prices and can lock them.',
          )}
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          {t('New sub-account')}
        </Button>
      </Group>
      <Card withBorder padding="md">
        {list.isPending ? (
          <Loader size="sm" aria-label={t('Loading sub-accounts')} />
        ) : list.isError ? (
          <Alert color="red">{errorText(list.error)}</Alert>
        ) : list.data.items.length === 0 && cursors.length === 1 ? (
          <EmptyState
            variant="light"
            icon={<IconUsers size={32} />}
            title={t('No sub-accounts yet')}
            description={t('Create one for each client you resell to; its owner gets an invite by email.')}
            py="xl"
          >
            <EmptyState.Actions>
              <Button onClick={() => setCreating(true)}>{t('New sub-account')}</Button>
            </EmptyState.Actions>
          </EmptyState>
        ) : (
          <Stack>
            <Table.ScrollContainer minWidth={280}>
              <Table verticalSpacing="sm" aria-label={t('Sub-accounts')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('Name')}</Table.Th>
                    <Table.Th ta="right">{t('Balance')}</Table.Th>
                    <Table.Th>{t('Status')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.items.map((s) => (
                    <Table.Tr key={s.id}>
                      <Table.Td>
                        <Anchor component={Link} to={paths.subAccount.getHref(s.id)} fw={500} size="sm">
                          {s.name}
                        </Anchor>
                        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                          {s.pendingOwnerEmail
                            ? t('Owner invited: {{email}}', { email: s.pendingOwnerEmail })
                            : s.members === 1
                              ? t('{{count}} member', { count: s.members })
                              : t('{{count}} members', { count: s.members })}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {formatMoney(s.balanceMinor, s.currency)}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Text size="sm" fw={600} c={s.status === 'locked' ? 'red' : 'green'}>
                          {s.status === 'locked' ? t('Locked') : t('Active')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {(cursors.length > 1 || list.data.nextCursor) && (
              <Group justify="space-between">
                <Button
                  variant="default"
                  disabled={cursors.length === 1}
                  onClick={() => setCursors((c) => c.slice(0, -1))}
                >
                  {t('Previous')}
                </Button>
                <Button
                  variant="default"
                  disabled={!list.data.nextCursor}
                  onClick={() => setCursors((c) => [...c, list.data.nextCursor])}
                >
                  {t('Next')}
                </Button>
              </Group>
            )}
          </Stack>
        )}
      </Card>
      <CreateDialog opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
