import { Badge, Card, Group, Text, Title } from '@mantine/core';
import type { TemplateDto } from '@wren/contracts';
import { IconPencil, IconTrash } from './icons';
import { PlaceholderText } from './placeholder-text';
import { Can } from '@/components/can';
import { RowAction } from '@/components/row-action';
import { formatDate } from '@/lib/format';
import { useT } from '@/lib/i18n';

interface TemplateCardProps {
  template: TemplateDto;
  onEdit: (template: TemplateDto) => void;
  onDelete: (template: TemplateDto) => void;
}

export function TemplateCard({ template, onEdit, onDelete }: TemplateCardProps) {
  const t = useT();
  const unicode = template.encoding === 'UCS-2';
  return (
    <Card withBorder radius="md" padding="lg" data-testid="template-card" component="article">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Title order={3} size="h5" lineClamp={1}>
            {template.name}
          </Title>
          <Text size="xs" c="dimmed">
            {t('Updated {{date}}', { date: formatDate(template.updatedAt) })}
          </Text>
        </div>
        <Can permission="templates:write">
          <Group gap={2} wrap="nowrap">
            <RowAction
              tip={t('Edit')}
              label={t('Edit template {{name}}', { name: template.name })}
              onClick={() => onEdit(template)}
            >
              <IconPencil />
            </RowAction>
            <RowAction
              tip={t('Delete')}
              label={t('Delete template {{name}}', { name: template.name })}
              danger
              onClick={() => onDelete(template)}
            >
              <IconTrash />
            </RowAction>
          </Group>
        </Can>
      </Group>
      <PlaceholderText text={template.text} size="sm" mt="sm" lineClamp={5} style={{ flex: 1 }} />
      <Group gap={6} mt="md">
        <Badge variant="light" color={unicode ? 'orange' : 'teal'} tt="none">
          {unicode ? 'Unicode' : 'GSM-7'}
        </Badge>
        <Badge variant="default" tt="none">
          {t('{{count}} chars', { count: template.characters })}
        </Badge>
        <Badge variant="default" tt="none">
          {template.segments === 1
            ? t('{{count}} segment', { count: template.segments })
            : t('{{count}} segments', { count: template.segments })}
        </Badge>
        {template.placeholders.length > 0 && (
          <Badge variant="light" color="grape" tt="none">
            {template.placeholders.length === 1
              ? t('{{count}} placeholder', { count: template.placeholders.length })
              : t('{{count}} placeholders', { count: template.placeholders.length })}
          </Badge>
        )}
      </Group>
    </Card>
  );
}
