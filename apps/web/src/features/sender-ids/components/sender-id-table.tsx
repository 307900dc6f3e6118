import { Badge, Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { SenderIdDto } from '@wren/contracts';
import { STATUS_META } from '../sender-id-rules';
import { IconStar, IconTrash } from './icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { RowAction } from '@/components/row-action';
import { useCan } from '@/lib/account-role';
import { formatDate } from '@/lib/format';
import { useT } from '@/lib/i18n';

interface SenderIdTableProps {
  items: SenderIdDto[];
  /** The id whose "Make default" is in flight. */
  settingDefault: string | null;
  onMakeDefault: (item: SenderIdDto) => void;
  onDelete: (item: SenderIdDto) => void;
}

function StatusCell({ item }: { item: SenderIdDto }) {
  const t = useT();
  const meta = STATUS_META[item.status];
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={meta.color} variant="light">
        {t(meta.label)}
      </Badge>
      {item.status === 'rejected' && item.reason && (
        <Text size="xs" c="red" maw={260}>
          {t('Reason: {{reason}}', { reason: item.reason })}
        </Text>
      )}
    </Stack>
  );
}

export function SenderIdTable({ items, settingDefault, onMakeDefault, onDelete }: SenderIdTableProps) {
  // Make default and Delete are sender-ids:manage's (a role that only reads has no actions column).
  const canManage = useCan('sender-ids:manage');
  const t = useT();
  return (
    <ResponsiveTable minWidth={760} verticalSpacing="sm" highlightOnHover aria-label={t('Sender IDs')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Sender ID')}</Table.Th>
          <Table.Th>{t('Status')}</Table.Th>
          <Table.Th>{t('Purpose')}</Table.Th>
          <Table.Th>{t('Requested')}</Table.Th>
          {canManage && (
            <Table.Th>
              <VisuallyHidden>{t('Actions')}</VisuallyHidden>
            </Table.Th>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item) => (
          <Table.Tr key={item.id} data-testid="sender-id-row">
            <Table.Td data-label={t('Sender ID')}>
              <div>
                <Group gap="xs" wrap="nowrap">
                  <Text fw={600} ff="monospace">
                    {item.value}
                  </Text>
                  {item.isDefault && (
                    <Badge
                      color="indigo"
                      variant="filled"
                      leftSection={<IconStar size={12} />}
                      style={{ flexShrink: 0, minWidth: 'max-content' }}
                    >
                      {t('Default')}
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed" tt="capitalize">
                  {item.kind === 'numeric' ? t('numeric') : t('alphanumeric')}
                </Text>
              </div>
            </Table.Td>
            <Table.Td data-label={t('Status')}>
              <StatusCell item={item} />
            </Table.Td>
            <Table.Td data-label={t('Purpose')} maw={320}>
              <div>
                <Text size="sm" lineClamp={2}>
                  {item.purpose}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={1} fs="italic">
                  “{item.sampleMessage}”
                </Text>
              </div>
            </Table.Td>
            <Table.Td data-label={t('Requested')}>
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatDate(item.createdAt)}
              </Text>
            </Table.Td>
            {canManage && (
              <Table.Td data-label="">
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  {item.status === 'approved' && !item.isDefault && (
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconStar size={14} />}
                      loading={settingDefault === item.id}
                      onClick={() => onMakeDefault(item)}
                      aria-label={t('Make {{value}} the default sender ID', { value: item.value })}
                    >
                      {t('Make default')}
                    </Button>
                  )}
                  <RowAction
                    tip={t('Delete')}
                    label={t('Delete sender ID {{value}}', { value: item.value })}
                    danger
                    onClick={() => onDelete(item)}
                  >
                    <IconTrash />
                  </RowAction>
                </Group>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ResponsiveTable>
  );
}
