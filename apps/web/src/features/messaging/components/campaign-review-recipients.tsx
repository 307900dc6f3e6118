import { Alert, Badge, List, Table, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { CampaignEstimate } from '@wren/contracts';
import { formatMoney } from '@/lib/money';
import { missingValuesLines } from '../missing-values';

/** Recipients shown as sent in the review. */
export const REVIEW_PREVIEW_ROWS = 3;

/**
 * The review step's per-recipient part (issue 47 item 2): the first recipients' messages as they
 * will be sent, with their segments, and a warning naming each placeholder some recipients have no
 * value for (they are sent the text with it left empty).
 */
export function CampaignReviewRecipients({ est, currency }: { est: CampaignEstimate; currency: string }) {
  const t = useT();
  const rows = est.preview.filter((p) => !p.problem).slice(0, REVIEW_PREVIEW_ROWS);
  const warnings = missingValuesLines(est.missingValues);
  return (
    <>
      {rows.length > 0 && (
        <div>
          <Text size="sm" fw={600} mb={4}>
            {t('First recipients, as they will get it')}
          </Text>
          <Table withTableBorder data-testid="review-preview">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Recipient')}</Table.Th>
                <Table.Th>{t('Message')}</Table.Th>
                <Table.Th>{t('Segments')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p, i) => (
                <Table.Tr key={`${p.recipient ?? ''}-${i}`}>
                  <Table.Td>{p.recipient}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{p.text}</Table.Td>
                  <Table.Td>
                    {p.segments}
                    {p.encoding === 'UCS-2' && (
                      <Badge ml={4} size="xs" color="orange" variant="light">
                        Unicode
                      </Badge>
                    )}
                    <Text size="xs" c="dimmed">
                      {formatMoney(p.costMinor, currency)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      {warnings.length > 0 && (
        <Alert color="yellow" variant="light" title={t('Missing values')} data-testid="missing-values">
          <List size="sm" spacing={2}>
            {warnings.map((w) => (
              <List.Item key={w}>{w}</List.Item>
            ))}
          </List>
          <Text size="xs" mt={6}>
            {t(
              'Those recipients get the message with the placeholder left empty. Add the values to the contacts, or go back and change the text.',
            )}
          </Text>
        </Alert>
      )}
    </>
  );
}
