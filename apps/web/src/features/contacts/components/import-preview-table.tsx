import { Badge, Stack, Table, Text } from '@mantine/core';
import type { ImportUploadDto } from '@wren/contracts';
import { useT } from '@/lib/i18n';
import { columnRole, type MappingState } from '../import-mapping';

const PREVIEW_ROWS = 5;

interface ImportPreviewTableProps {
  upload: Pick<ImportUploadDto, 'columns' | 'previewRows'>;
  state: MappingState;
}

/** The first rows of the file, each column headed by what it will become. */
export function ImportPreviewTable({ upload, state }: ImportPreviewTableProps) {
  const t = useT();
  return (
    <Table.ScrollContainer minWidth={Math.min(900, upload.columns.length * 150)} type="native">
      <Table withTableBorder withColumnBorders striped fz="xs" aria-label={t('File preview')}>
        <Table.Thead>
          <Table.Tr>
            {upload.columns.map((column) => {
              const role = columnRole(state, column);
              return (
                <Table.Th key={column} style={{ verticalAlign: 'top' }}>
                  <Stack gap={4}>
                    <Text size="xs" fw={600} lineClamp={1}>
                      {column}
                    </Text>
                    {role ? (
                      <Badge
                        size="xs"
                        variant="light"
                        color={role === 'Phone' ? 'indigo' : role === 'Name' ? 'teal' : 'grape'}
                        tt="none"
                      >
                        {role === 'Phone' || role === 'Name' ? t(role) : role}
                      </Badge>
                    ) : (
                      <Badge size="xs" variant="default" c="dimmed" tt="none">
                        {t('Skipped')}
                      </Badge>
                    )}
                  </Stack>
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {upload.previewRows.slice(0, PREVIEW_ROWS).map((row, r) => (
            <Table.Tr key={r}>
              {upload.columns.map((column, c) => (
                <Table.Td key={column} c={columnRole(state, column) ? undefined : 'dimmed'}>
                  {row[c] ?? ''}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
