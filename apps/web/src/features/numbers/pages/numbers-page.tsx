import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { NUMBERS_API, type NumberKind, type OwnNumberList } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { http } from '@/lib/http/client';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';

const useOwnNumbers = () =>
  useQuery({
    queryKey: ['numbers', 'own'],
    queryFn: async () => (await http.get<OwnNumberList>(NUMBERS_API.list, { noOverlay: true })).data,
  });

/**
 * Settings → Numbers (issue 40 item 0): the long and short codes assigned to the account, what each
 * costs a month and until when it is paid. Each is one of the account's senders, and replies to it
 * come to this account.
 */
export default function NumbersPage() {
  const t = useT();
  const list = useOwnNumbers();
  const kind = (k: NumberKind) => (k === 'long' ? t('Long code') : t('Short code'));

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="md">
        <div>
          <Title order={1} size="h3">
            {t('Numbers')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('Numbers of your own to send from and receive replies on. Each is one of your senders.')}
          </Text>
        </div>
        {list.isPending && (
          <Center p="xl">
            <Loader size="sm" aria-label={t('Loading numbers…')} />
          </Center>
        )}
        {list.isError && (
          <Alert color="red" title={t('Could not load your numbers')}>
            <Group gap="sm">
              <Text size="sm">{messageOf(list.error)}</Text>
              <Button size="xs" variant="default" onClick={() => void list.refetch()}>
                {t('Try again')}
              </Button>
            </Group>
          </Alert>
        )}
        {list.isSuccess && list.data.items.length === 0 && (
          <Stack gap={4} align="center" p="xl">
            <Text fw={600}>{t('No numbers yet')}</Text>
            <Text size="sm" c="dimmed" ta="center" maw={460}>
              {t(
                'Ask us for a long code or a short code: we assign it to your account, and it shows here and among your sender IDs.',
              )}
            </Text>
          </Stack>
        )}
        {list.isSuccess && list.data.items.length > 0 && (
          <ResponsiveTable minWidth={640} verticalSpacing="sm" data-testid="own-numbers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Number')}</Table.Th>
                <Table.Th>{t('Country')}</Table.Th>
                <Table.Th>{t('Monthly price')}</Table.Th>
                <Table.Th>{t('Paid until')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((n) => (
                <Table.Tr key={n.id}>
                  <Table.Td data-label={t('Number')}>
                    <Stack gap={2} align="flex-start">
                      <Text size="sm" fw={600} ff="monospace" dir="ltr">
                        {n.number}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {kind(n.kind)}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td data-label={t('Country')}>{n.country}</Table.Td>
                  <Table.Td data-label={t('Monthly price')}>
                    {formatMoney(n.monthlyPriceMinor, list.data.currency)}
                  </Table.Td>
                  <Table.Td data-label={t('Paid until')}>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm">{n.paidUntil ? formatDate(n.paidUntil) : '—'}</Text>
                      {n.pastDueSince && (
                        <Badge color="red" variant="light">
                          {t('Past due')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        )}
        {list.isSuccess && list.data.items.some((n) => n.pastDueSince) && (
          <Alert color="red" title={t('A number’s next month is not paid')}>
            {t('Your balance did not cover it. Top up within 7 days, or the number is released.')}{' '}
            <Anchor component={Link} to={paths.billing.balance.getHref()}>
              {t('Top up')}
            </Anchor>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
