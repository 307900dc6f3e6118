import { Code, Table } from '@mantine/core';
import { V1_ERRORS } from '@wren/contracts';
import { InlineCode } from '@/components/inline-code';
import { useT } from '@/lib/i18n';
import classes from './v1-error-table.module.css';

/**
 * Every /v1 error code with its HTTP status and meaning (the meanings' `code` spans as <Code>); the
 * meanings (English in the contracts) are keys, shown in the user's language.
 */
export function V1ErrorTable() {
  const t = useT();
  return (
    <Table verticalSpacing={4} fz="sm" className={classes.errors} aria-label={t('Error codes')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('code')}</Table.Th>
          <Table.Th>HTTP</Table.Th>
          <Table.Th>{t('meaning')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {Object.entries(V1_ERRORS).map(([code, [status, , meaning]]) => (
          <Table.Tr key={code}>
            <Table.Td>
              <Code>{code}</Code>
            </Table.Td>
            <Table.Td>{status}</Table.Td>
            <Table.Td>
              <InlineCode text={t(meaning)} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
