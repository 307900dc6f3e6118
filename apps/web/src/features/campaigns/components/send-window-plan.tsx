import { Table, Text } from '@mantine/core';
import type { SendWindowsSummary } from '@wren/contracts';
import { formatNumber } from '@/lib/format';

const utcLabel = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * The send window's plan as the estimate gives it: recipients per time zone, when their window
 * opens (local and UTC), and when the last zone's opens.
 */
export function SendWindowPlan({ plan }: { plan: SendWindowsSummary }) {
  return (
    <>
      <Table.ScrollContainer minWidth={360}>
        <Table
          withTableBorder
          fz="xs"
          verticalSpacing={4}
          aria-label="Send window by time zone"
          data-testid="send-window-plan"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time zone</Table.Th>
              <Table.Th ta="right">Recipients</Table.Th>
              <Table.Th>Sends from</Table.Th>
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
                      (zone not known)
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{formatNumber(z.recipients)}</Table.Td>
                <Table.Td>
                  {z.openNow ? (
                    'Now'
                  ) : (
                    <>
                      {z.opensAtLocal} local
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
          The last recipients are sent from {utcLabel(plan.lastSendAt)}.
        </Text>
      )}
    </>
  );
}
