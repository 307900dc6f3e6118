import { useState, type ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  EmptyState,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { SmppAccountCreated, SmppAccountDto } from '@wren/contracts';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDeleteModal } from '@/components/confirm-delete-modal';
import { FormAlert } from '@/components/form-alert';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { formatDateTimeOr, formatNumber } from '@/lib/format';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { currentLocale, translate, useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import {
  useDeleteSmppAccount,
  useRotateSmppPassword,
  useSetSmppDisabled,
  useSmppAccount,
  useSmppBinds,
  useUpdateSmppAccount,
} from '../api/smpp-accounts';
import { IconBan, IconCheck, IconPlug, IconRotate, IconTrash } from '../components/icons';
import { PasswordOnce } from '../components/password-once';
import { BIND_MODE_LABELS, SmppForm, toSmppUpdate } from '../components/smpp-form';
import { SmppStatusBadge } from '../components/smpp-status-badge';

const when = (iso: string | null) => formatDateTimeOr(iso, translate('Never'));

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" mt={2}>
        {children}
      </Text>
    </div>
  );
}

/** An SMPP account that is not there (404), or an address whose id is not one (400). */
function LoadError({ error }: { error: unknown }) {
  const t = useT();
  const missing = error instanceof HttpError && (error.status === 404 || error.status === 400);
  return (
    <Paper withBorder radius="md" p="xl" maw={760}>
      <EmptyState
        variant="light"
        size="lg"
        icon={<IconPlug size={32} />}
        title={
          missing
            ? t('This SMPP account does not exist (or was deleted)')
            : t('Could not load this SMPP account')
        }
        description={
          missing ? t('Check the address, or open it from your list of SMPP accounts.') : messageOf(error)
        }
        py="xl"
        data-testid="smpp-load-error"
      >
        <EmptyState.Actions>
          <Button component={Link} to={paths.smpp.list.getHref()} variant="default">
            {t('Back to SMPP accounts')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}

/** The binds open now on every server, read again every few seconds. */
function LiveBinds({ account }: { account: SmppAccountDto }) {
  const t = useT();
  const binds = useSmppBinds(account.id);
  const list = binds.data?.data ?? [];
  return (
    <Paper withBorder radius="md">
      <Group justify="space-between" p="md" wrap="wrap" gap="sm">
        <div>
          <Title order={2} size="h4">
            {t('Live binds')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('Open now on every server; refreshed every few seconds.')}
          </Text>
        </div>
        <Group gap="lg" data-testid="smpp-receipts">
          <Text size="sm">
            {t('Receipts waiting:')}{' '}
            <b>{formatNumber(binds.data?.receiptsWaiting ?? account.receiptsWaiting)}</b>
          </Text>
          <Text size="sm">
            {t('Receipts expired:')}{' '}
            <b>{formatNumber(binds.data?.receiptsExpired ?? account.receiptsExpired)}</b>
          </Text>
        </Group>
      </Group>
      {binds.isPending && <Skeleton height={36} mx="md" mb="md" aria-label={t('Loading live binds')} />}
      {binds.isError && (
        <Alert color="red" m="md" title={t('Could not load the live binds')}>
          {messageOf(binds.error)}
        </Alert>
      )}
      {binds.isSuccess && list.length === 0 && (
        <Text size="sm" c="dimmed" px="md" pb="md" data-testid="smpp-no-binds">
          {t('Nothing is bound with {{systemId}} now.', { systemId: account.systemId })}
          {account.receiptsWaiting > 0 &&
            ` ${t('Its receipts wait and go out, oldest first, on the next receiver or transceiver bind.')}`}
        </Text>
      )}
      {list.length > 0 && (
        <ResponsiveTable minWidth={760} verticalSpacing="sm" aria-label={t('Live binds')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Bound since')}</Table.Th>
              <Table.Th>{t('Remote address')}</Table.Th>
              <Table.Th>{t('Mode')}</Table.Th>
              <Table.Th>{t('TLS')}</Table.Th>
              <Table.Th ta="right">{t('Window in use')}</Table.Th>
              <Table.Th ta="right">{t('Submits/s')}</Table.Th>
              <Table.Th>{t('Server')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((b) => (
              <Table.Tr key={b.id}>
                <Table.Td data-label={t('Bound since')}>{when(b.boundSince)}</Table.Td>
                <Table.Td data-label={t('Remote address')}>
                  <Code>{b.remoteAddress}</Code>
                </Table.Td>
                <Table.Td data-label={t('Mode')}>{t(BIND_MODE_LABELS[b.mode])}</Table.Td>
                <Table.Td data-label={t('TLS')}>{b.tls ? t('Yes') : t('No')}</Table.Td>
                <Table.Td data-label={t('Window in use')} ta="right">
                  {b.windowInUse} / {account.windowSize}
                </Table.Td>
                <Table.Td data-label={t('Submits/s')} ta="right">
                  {b.submitsPerSecond.toLocaleString(currentLocale(), { maximumFractionDigits: 1 })}
                </Table.Td>
                <Table.Td data-label={t('Server')}>{b.node}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
      )}
    </Paper>
  );
}

type Confirm = 'rotate' | 'disable' | 'enable' | null;

export default function SmppViewPage() {
  const t = useT();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const account = useSmppAccount(id);
  const update = useUpdateSmppAccount();
  const rotate = useRotateSmppPassword();
  const setDisabled = useSetSmppDisabled();
  const remove = useDeleteSmppAccount();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [rotated, setRotated] = useState<SmppAccountCreated | null>(null);

  if (account.isPending) return <Skeleton height={420} radius="md" />;
  if (account.isError) return <LoadError error={account.error} />;
  const a = account.data;
  const active = a.status === 'active';

  const close = () => {
    setConfirm(null);
    setError(null);
  };

  const act = async () => {
    setError(null);
    try {
      if (confirm === 'rotate') {
        setRotated(await rotate.mutateAsync(id));
        toast.success(t('New password made; the old one no longer works.'));
      } else if (confirm === 'disable') {
        await setDisabled.mutateAsync({ id, disabled: true });
        toast.success(
          t('{{systemId}} is disabled: its binds are closed and new binds are refused.', {
            systemId: a.systemId,
          }),
        );
      } else if (confirm === 'enable') {
        await setDisabled.mutateAsync({ id, disabled: false });
        toast.success(t('{{systemId}} is enabled: clients may bind again.', { systemId: a.systemId }));
      }
      setConfirm(null);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const doDelete = async () => {
    setError(null);
    try {
      await remove.mutateAsync(id);
      toast.success(t('SMPP account "{{systemId}}" deleted.', { systemId: a.systemId }));
      void navigate(paths.smpp.list.getHref());
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const CONFIRM_TEXT: Record<Exclude<Confirm, null>, { title: string; text: string; action: string }> = {
    rotate: {
      title: t('Rotate password'),
      text: t(
        'Make a new password for {{systemId}}? The current one stops working at once and its live binds are closed; put the new one, shown once, in the client.',
        { systemId: a.systemId },
      ),
      action: t('Rotate password'),
    },
    disable: {
      title: t('Disable SMPP account'),
      text: t(
        'Disable {{systemId}}? Its live binds are closed and every bind is refused (ESME_RBINDFAIL) until you enable it. Receipts keep waiting (until they expire).',
        { systemId: a.systemId },
      ),
      action: t('Disable'),
    },
    enable: {
      title: t('Enable SMPP account'),
      text: t('Enable {{systemId}}? Clients with its password may bind again.', { systemId: a.systemId }),
      action: t('Enable'),
    },
  };
  const shown = confirm ? CONFIRM_TEXT[confirm] : null;

  return (
    <Stack gap="lg">
      {rotated && (
        <PasswordOnce
          systemId={rotated.account.systemId}
          password={rotated.password}
          doneLabel={t('I have copied it')}
          onDone={() => setRotated(null)}
        />
      )}
      <Paper withBorder radius="md" p="lg">
        <Group justify="space-between" wrap="wrap" gap="sm" mb="md">
          <Group gap="sm">
            <Title order={2} size="h4">
              <Code fz="inherit">{a.systemId}</Code> {a.name}
            </Title>
            <SmppStatusBadge status={a.status} />
          </Group>
          <Group gap="xs">
            {!editing && (
              <Button variant="default" onClick={() => setEditing(true)}>
                {t('Edit settings')}
              </Button>
            )}
            <Button variant="default" leftSection={<IconRotate />} onClick={() => setConfirm('rotate')}>
              {t('Rotate password')}
            </Button>
            {active ? (
              <Button variant="default" leftSection={<IconBan />} onClick={() => setConfirm('disable')}>
                {t('Disable')}
              </Button>
            ) : (
              <Button variant="default" leftSection={<IconCheck />} onClick={() => setConfirm('enable')}>
                {t('Enable')}
              </Button>
            )}
            <Button color="red" variant="light" leftSection={<IconTrash />} onClick={() => setDeleting(true)}>
              {t('Delete')}
            </Button>
          </Group>
        </Group>
        {editing ? (
          <SmppForm
            initial={a}
            submitLabel={t('Save settings')}
            onCancel={() => setEditing(false)}
            onSubmit={async (values) => {
              await update.mutateAsync({ id, patch: toSmppUpdate(values) });
              setEditing(false);
              toast.success(t('Settings of {{systemId}} saved.', { systemId: a.systemId }));
            }}
          />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            <Field label={t('System ID')}>
              <Code>{a.systemId}</Code>
            </Field>
            <Field label={t('Allowed IP addresses')}>
              {a.ipAllowlist.length ? a.ipAllowlist.join(', ') : t('Any address')}
            </Field>
            <Field label={t('Bind modes')}>
              <Group gap={4}>
                {a.bindModes.map((m) => (
                  <Badge key={m} variant="outline" size="sm" tt="none">
                    {t(BIND_MODE_LABELS[m])} ({m})
                  </Badge>
                ))}
              </Group>
            </Field>
            <Field label={t('Max binds')}>{a.maxBinds}</Field>
            <Field label={t('Throughput')}>
              {t('{{count}} messages per second', { count: formatNumber(a.throughputPerSecond) })}
            </Field>
            <Field label={t('Window')}>
              {t('{{count}} unanswered requests per bind', { count: a.windowSize })}
            </Field>
            <Field label={t('Default sender')}>
              {a.defaultSender ?? t("The account's default sender ID")}
            </Field>
            <Field label={t('Message id notation')}>
              {a.idNotation === 'hex' ? t('Hex (1E240)') : t('Decimal (123456)')}
            </Field>
            <Field label={t('Created')}>{when(a.createdAt)}</Field>
            <Field label={t('Password rotated')}>{when(a.passwordRotatedAt)}</Field>
            <Field label={t('Last bind')}>
              {when(a.lastBindAt)}
              {a.lastBindIp ? ` ${t('from {{ip}}', { ip: a.lastBindIp })}` : ''}
            </Field>
          </SimpleGrid>
        )}
      </Paper>
      <LiveBinds account={a} />
      <Modal opened={shown !== null} onClose={close} title={shown?.title} centered>
        <Stack>
          <Text size="sm">{shown?.text}</Text>
          <FormAlert message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              {t('Cancel')}
            </Button>
            <Button loading={rotate.isPending || setDisabled.isPending} onClick={() => void act()}>
              {shown?.action}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ConfirmDeleteModal
        opened={deleting}
        title={t('Delete SMPP account')}
        confirmLabel={t('Delete SMPP account')}
        loading={remove.isPending}
        error={deleting ? error : null}
        onConfirm={() => void doDelete()}
        onClose={() => {
          setDeleting(false);
          setError(null);
        }}
      >
        {t(
          'Delete {{systemId}}? Its live binds are closed, clients can no longer bind with it, and the receipts waiting for it are never delivered. This cannot be undone.',
          { systemId: a.systemId },
        )}
      </ConfirmDeleteModal>
    </Stack>
  );
}
