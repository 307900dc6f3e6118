import { Badge, Card, Table, Text, Title } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { CampaignEstimate } from '@wren/contracts';
import { formatMoney } from '@/lib/money';

/** The first rows of a personalised campaign as they will be sent; a row that will not is flagged. */
export function PersonalisedPreviewCard({
  preview,
  currency,
}: {
  preview: CampaignEstimate['preview'];
  currency: string;
}) {
  const t = useT();
  // With a send window, each row's local send time (issue 41 item 4).
  const timed = preview.some((p) => p.sendsAtLocal);
  return (
    <Card withBorder radius="md" mt="lg" p="lg">
      <Title order={2} size="h5" mb="sm">
        {t('Preview: the first rows as they will be sent')}
      </Title>
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="personalised-preview">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Row')}</Table.Th>
              <Table.Th>{t('Recipient')}</Table.Th>
              <Table.Th>{t('Message')}</Table.Th>
              <Table.Th>{t('Segments')}</Table.Th>
              <Table.Th>{t('Cost')}</Table.Th>
              {timed && <Table.Th>{t('Local send time')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.map((p, i) => (
              <Table.Tr
                key={`${p.row}-${p.recipient ?? ''}-${i}`}
                data-flagged={p.problem ? 'true' : undefined}
                style={p.problem ? { boxShadow: 'inset 4px 0 0 var(--mantine-color-red-filled)' } : undefined}
              >
                {/* A contact has no row of a file: its place in the list. */}
                <Table.Td>{p.row || i + 1}</Table.Td>
                <Table.Td>{p.recipient ?? '—'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {p.problem ? (
                    <Text size="sm" fw={600}>
                      {t('Not sent: {{problem}}', { problem: p.problem })}
                    </Text>
                  ) : (
                    p.text
                  )}
                  {!p.problem && p.missing?.length ? (
                    <Text size="xs" c="yellow.8">
                      {t('No value for {{placeholders}}: left empty', {
                        placeholders: p.missing.map((m) => `{{${m}}}`).join(', '),
                      })}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  {p.problem ? '—' : p.segments}
                  {!p.problem && p.encoding === 'UCS-2' && (
                    <Badge ml={4} size="xs" color="orange" variant="light">
                      Unicode
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{p.problem ? '—' : formatMoney(p.costMinor, currency)}</Table.Td>
                {timed && (
                  <Table.Td>
                    {p.sendsAtLocal ?? '—'}
                    {p.timeZone && (
                      <Text size="xs" c="dimmed">
                        {p.timeZone}
                      </Text>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
