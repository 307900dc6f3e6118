import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  EmptyState,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import type { OtpServiceDto } from '@wren/contracts';
import { Link } from 'react-router';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { ResponsiveTable } from '@/components/responsive-table';
import { RowAction } from '@/components/row-action';
import { paths } from '@/config/paths';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useDeleteOtpService, useOtpServices } from '../api/otp-services';
import { IconBook, IconFlask, IconPencil, IconPlus, IconShield, IconTrash } from '../components/icons';
import { ToneBadge } from '../components/tone-badge';
import { formatPercent } from '../otp-format';
import { formatNumber } from '@/lib/format';

export default function OtpServicesPage() {
  const t = useT();
  const list = useOtpServices();
  const remove = useDeleteOtpService();
  const deleting = useModalTarget<OtpServiceDto>();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const items = list.data ?? [];

  const confirmDelete = async () => {
    const svc = deleting.target;
    if (!svc) return;
    try {
      await remove.mutateAsync(svc.id);
      toast.success(t('OTP service "{{name}}" has been deleted.', { name: svc.name }));
      deleting.close();
    } catch (error) {
      setDeleteError(messageOf(error));
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Text c="dimmed" size="sm" maw={560}>
          {t(
            'Send one-time passwords on the priority lane, with brute-force and SMS-pumping protection on by default. Your app calls two endpoints: send and check.',
          )}
        </Text>
        <Group gap="sm">
          <Button component={Link} to={paths.otp.doc.getHref()} variant="default" leftSection={<IconBook />}>
            {t('API documentation')}
          </Button>
          <Button component={Link} to={paths.otp.create.getHref()} leftSection={<IconPlus />}>
            {t('New OTP service')}
          </Button>
        </Group>
      </Group>

      {list.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label={t('Loading OTP services')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={44} radius="sm" />
          ))}
        </Stack>
      )}
      {list.isError && (
        <Alert color="red" variant="light" title={t('The OTP services could not be loaded')} role="alert">
          <Stack gap="sm" align="flex-start">
            {messageOf(list.error)}
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('Try again')}
            </Button>
          </Stack>
        </Alert>
      )}
      {list.isSuccess && items.length === 0 && (
        <Paper withBorder radius="md">
          <EmptyState
            variant="light"
            size="lg"
            py={48}
            icon={<IconShield width={32} height={32} />}
            title={t('No OTP services yet')}
            description={t('Create a service to send verification codes from your app or website.')}
          >
            <EmptyState.Actions>
              <Button component={Link} to={paths.otp.create.getHref()} leftSection={<IconPlus />}>
                {t('Create your first OTP service')}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Paper>
      )}
      {items.length > 0 && (
        <Paper withBorder radius="md">
          <ResponsiveTable
            minWidth={900}
            verticalSpacing="sm"
            highlightOnHover
            aria-label={t('OTP services')}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Sender')}</Table.Th>
                <Table.Th>{t('Code')}</Table.Th>
                <Table.Th>{t('Lifetime')}</Table.Th>
                <Table.Th ta="right">{t('Sends (24 h)')}</Table.Th>
                <Table.Th ta="right">{t('Verified')}</Table.Th>
                <Table.Th ta="right">{t('Blocked')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('Actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td data-label={t('Name')}>
                    <Anchor component={Link} to={paths.otp.view.getHref(s.id)} fw={500}>
                      {s.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td data-label={t('Sender')}>
                    {s.senderId || (
                      <Text span c="dimmed" size="sm">
                        {t('Default')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Code')}>
                    {s.codeType === 'numeric'
                      ? t('{{count}} digits', { count: s.codeLength })
                      : t('{{count}} characters', { count: s.codeLength })}
                  </Table.Td>
                  <Table.Td data-label={t('Lifetime')}>
                    {t('{{count}} min', { count: s.ttlMinutes })}
                  </Table.Td>
                  <Table.Td data-label={t('Sends (24 h)')} ta="right">
                    {formatNumber(s.stats.sends24h)}
                  </Table.Td>
                  <Table.Td data-label={t('Verified')} ta="right">
                    {s.stats.sends24h ? formatPercent(s.stats.verificationRate24h) : '–'}
                  </Table.Td>
                  <Table.Td data-label={t('Blocked')} ta="right">
                    {s.stats.blocked24h ? (
                      <ToneBadge color="red">{formatNumber(s.stats.blocked24h)}</ToneBadge>
                    ) : (
                      '0'
                    )}
                  </Table.Td>
                  <Table.Td data-label="">
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button
                        component={Link}
                        to={paths.otp.test.getHref(s.id)}
                        size="compact-sm"
                        variant="light"
                        leftSection={<IconFlask />}
                        aria-label={t('Test {{name}}', { name: s.name })}
                      >
                        {t('Test')}
                      </Button>
                      <Button
                        component={Link}
                        to={paths.otp.edit.getHref(s.id)}
                        size="compact-sm"
                        variant="subtle"
                        color="gray"
                        leftSection={<IconPencil />}
                        aria-label={t('Edit {{name}}', { name: s.name })}
                      >
                        {t('Edit')}
                      </Button>
                      <RowAction
                        tip={t('Delete')}
                        label={t('Delete {{name}}', { name: s.name })}
                        danger
                        onClick={() => {
                          setDeleteError(null);
                          deleting.open(s);
                        }}
                      >
                        <IconTrash />
                      </RowAction>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        </Paper>
      )}

      <ConfirmDeleteModal
        opened={deleting.opened}
        title={t('Delete OTP service')}
        confirmLabel={t('Delete service')}
        loading={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={deleting.close}
      >
        {t('Delete')} <b>{deleting.target?.name}</b>
        {t(
          '? Its codes stop working at once and calls to its id get 404. Its verification history is deleted too. This cannot be undone.',
        )}
      </ConfirmDeleteModal>
    </Stack>
  );
}
