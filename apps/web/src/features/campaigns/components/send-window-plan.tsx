import { Table, Text } from '@mantine/core';
import type { SendWindowsSummary } from '@wren/contracts';
import { formatNumber } from '@/lib/format';
import { useT } from '@/lib/i18n';

const utcLabel = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * The send window's plan as the estimate gives it: recipients per time zone, when their window
 * opens (local and UTC), and when the last zone's opens.
 */
export function SendWindowPlan({ plan }: { plan: SendWindowsSummary }) {
  const t = useT();
  return (
    <>
      <Table.ScrollContainer minWidth={360}>
        <Table
          withTableBorder
          fz="xs"
          verticalSpacing={4}
          aria-label={t('Send window by time zone')}
          data-testid="send-window-plan"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Time zone')}</Table.Th>
              <Table.Th ta="right">{t('Recipients')}</Table.Th>
              <Table.Th>{t('Sends from')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {plan.zones.map((z) => (
              <Table.Tr key={`${z.timeZone}${z.fallback ? '*' : ''}`}>
                <Table.Td>
                  {z.timeZone}
                  {z.fallback && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      {t('(zone not known)')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{formatNumber(z.recipients)}</Table.Td>
                <Table.Td>
                  {z.openNow ? (
                    t('Now')
                  ) : (
                    <>
                      {t('{{time}} local', { time: z.opensAtLocal })}
                      <Text size="xs" c="dimmed">
                        {utcLabel(z.opensAt)}
                      </Text>
                    </>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {plan.lastSendAt && (
        <Text size="xs" c="dimmed">
          {t('The last recipients are sent from {{time}}.', { time: utcLabel(plan.lastSendAt) })}
        </Text>
      )}
    </>
  );
}
