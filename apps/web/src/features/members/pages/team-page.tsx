import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  ACCOUNT_ROLE_LABELS,
  ACCOUNT_ROLES,
  createInviteSchema,
  type AccountRole,
  type Member,
} from '@wren/contracts';
import { Can } from '@/components/can';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { FormAlert } from '@/components/form-alert';
import { applySubmitError } from '@/lib/form-errors';
import { toast } from '@/lib/toast';
import { formatDate } from '@/lib/format';
import { zodResolver } from '@/lib/zod-resolver';
import {
  useCan,
  useChangeRole,
  useCreateInvite,
  useInvites,
  useMembers,
  useRemoveMember,
  useRevokeInvite,
} from '../api/members';
import { translate, useT } from '@/lib/i18n';

const errorText = (e: unknown) => (e instanceof Error ? e.message : translate('Something went wrong'));

/**
 * The roles the member may hand out: all with account:owner (owners), all but owner otherwise
 * (admins). Every check on this page is useCan's (issue 39), the same table the server enforces.
 */
function useGrantable() {
  const canOwners = useCan('account:owner');
  const t = useT();
  return ACCOUNT_ROLES.filter((r) => r !== 'owner' || canOwners).map((r) => ({
    value: r,
    label: t(ACCOUNT_ROLE_LABELS[r]),
  }));
}

function InviteForm() {
  const create = useCreateInvite();
  const t = useT();
  const grantable = useGrantable();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ email: string; role: AccountRole }>({
    initialValues: { email: '', role: 'sender' },
    validate: zodResolver(createInviteSchema),
  });
  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      await create.mutateAsync(values);
      toast.success(t('Invite sent to {{email}}', { email: values.email }));
      form.reset();
    } catch (error) {
      setFormError(applySubmitError(form, error));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t('Invite a member')}>
      <Stack gap="sm">
        <FormAlert message={formError} />
        <Group align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
          <TextInput label={t('Email')} type="email" required miw={220} {...form.getInputProps('email')} />
          <Select
            label={t('Role')}
            data={grantable}
            allowDeselect={false}
            miw={160}
            {...form.getInputProps('role')}
          />
        </Group>
        <Group>
          <Button type="submit" loading={create.isPending}>
            {t('Send invite')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function MembersTable({ members }: { members: Member[] }) {
  const changeRole = useChangeRole();
  const t = useT();
  const remove = useRemoveMember();
  const confirm = useModalTarget<Member>();
  const grantable = useGrantable();
  const canManage = useCan('members:manage');
  const canOwners = useCan('account:owner');
  return (
    <>
      <Table.ScrollContainer minWidth={320}>
        <Table verticalSpacing="sm" aria-label={t('Members')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Member')}</Table.Th>
              <Table.Th>{t('Role')}</Table.Th>
              {canManage && <Table.Th aria-label={t('Actions')} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((m) => {
              const locked = !canManage || (m.role === 'owner' && !canOwners);
              return (
                <Table.Tr key={m.userId}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {m.name}{' '}
                      {m.you && (
                        <Badge size="xs" variant="light">
                          {t('you')}
                        </Badge>
                      )}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {m.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {locked ? (
                      <Text size="sm">{t(ACCOUNT_ROLE_LABELS[m.role])}</Text>
                    ) : (
                      <Select
                        aria-label={t('Role of {{name}}', { name: m.name })}
                        size="xs"
                        w={130}
                        data={grantable}
                        value={m.role}
                        allowDeselect={false}
                        disabled={changeRole.isPending}
                        onChange={(value) => {
                          if (!value || value === m.role) return;
                          changeRole.mutate(
                            { userId: m.userId, role: value },
                            {
                              onSuccess: () =>
                                toast.success(
                                  t('{{name}} is now {{role}}', {
                                    name: m.name,
                                    role: t(ACCOUNT_ROLE_LABELS[value]),
                                  }),
                                ),
                              onError: (e) => toast.error(errorText(e)),
                            },
                          );
                        }}
                      />
                    )}
                  </Table.Td>
                  {canManage && (
                    <Table.Td>
                      {!locked && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => confirm.open(m)}>
                          {m.you ? t('Leave') : t('Remove')}
                        </Button>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDeleteModal
        opened={confirm.opened}
        title={confirm.target?.you ? t('Leave this account?') : t('Remove this member?')}
        confirmLabel={confirm.target?.you ? t('Leave') : t('Remove')}
        loading={remove.isPending}
        error={remove.error ? errorText(remove.error) : null}
        onClose={() => {
          remove.reset();
          confirm.close();
        }}
        onConfirm={() =>
          confirm.target &&
          remove.mutate(confirm.target.userId, {
            onSuccess: () => {
              toast.success(
                confirm.target
                  ? t('{{name}} was removed', { name: confirm.target.name })
                  : t('The member was removed'),
              );
              confirm.close();
            },
          })
        }
      >
        {t('{{name}} ({{email}}) is signed out of this account at once.', {
          name: confirm.target?.name ?? '',
          email: confirm.target?.email ?? '',
        })}
      </ConfirmDeleteModal>
    </>
  );
}

function PendingInvites() {
  const invites = useInvites();
  const revoke = useRevokeInvite();
  const t = useT();
  const canManage = useCan('members:manage');
  // An owner's invite is withdrawn only by an owner (the server's ownersOnly).
  const canOwners = useCan('account:owner');
  if (invites.isPending) return <Loader size="sm" aria-label={t('Loading invites')} />;
  if (invites.isError) return <Alert color="red">{errorText(invites.error)}</Alert>;
  if (!invites.data.length)
    return (
      <Text size="sm" c="dimmed">
        {t('No pending invites.')}
      </Text>
    );
  return (
    <Stack gap="xs" role="list" aria-label={t('Pending invites')}>
      {invites.data.map((i) => {
        const expired = new Date(i.expiresAt).getTime() < Date.now();
        return (
          <Group key={i.id} justify="space-between" wrap="wrap" role="listitem">
            <div>
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {i.email}
              </Text>
              <Text size="xs" c="dimmed">
                {t(ACCOUNT_ROLE_LABELS[i.role])} ·{' '}
                {expired ? t('expired') : t('expires {{date}}', { date: formatDate(i.expiresAt) })}
              </Text>
            </div>
            {canManage && (i.role !== 'owner' || canOwners) && (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                loading={revoke.isPending && revoke.variables === i.id}
                onClick={() => revoke.mutate(i.id, { onError: (e) => toast.error(errorText(e)) })}
              >
                {t('Revoke')}
              </Button>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}

/** Settings → Team: the account's members, their roles, and invites (issue 39). */
export default function TeamPage() {
  const members = useMembers();
  const t = useT();
  return (
    <Stack maw={820}>
      <Title order={2} size="h3">
        {t('Members')}
      </Title>
      <Card withBorder>
        {members.isPending ? (
          <Loader size="sm" aria-label={t('Loading members')} />
        ) : members.isError ? (
          <Alert color="red" role="alert">
            {errorText(members.error)}
          </Alert>
        ) : members.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('No members yet.')}
          </Text>
        ) : (
          <MembersTable members={members.data} />
        )}
      </Card>
      <Can permission="members:manage">
        <Card withBorder>
          <Stack gap="sm">
            <Title order={3} size="h5">
              {t('Invite someone')}
            </Title>
            <InviteForm />
          </Stack>
        </Card>
      </Can>
      <Card withBorder>
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('Pending invites')}
          </Title>
          <PendingInvites />
        </Stack>
      </Card>
    </Stack>
  );
}
