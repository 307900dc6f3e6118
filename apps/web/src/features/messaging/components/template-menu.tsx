import { Button, Loader, Menu, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { Link } from 'react-router';
import type { TemplateDto } from '@wren/contracts';
import { IconBookmark } from '@/components/icons';
import { paths } from '@/config/paths';
import { useTemplates } from '@/features/templates';

/** "Insert template": the saved messages, each inserted into the text at the cursor. */
export function TemplateMenu({ onPick }: { onPick: (template: TemplateDto) => void }) {
  const t = useT();
  const templates = useTemplates();
  const items = templates.data ?? [];

  return (
    <Menu position="bottom-end" width={320} shadow="md" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="compact-sm" leftSection={<IconBookmark size={16} />}>
          {t('Insert template')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah={360} style={{ overflowY: 'auto' }}>
        <Menu.Label>{t('Saved messages')}</Menu.Label>
        {templates.isPending && (
          <Menu.Item disabled leftSection={<Loader size="xs" />}>
            {t('Loading…')}
          </Menu.Item>
        )}
        {templates.isError && (
          <Menu.Item disabled c="red">
            {t('Could not load your saved messages')}
          </Menu.Item>
        )}
        {templates.isSuccess && items.length === 0 && (
          <Menu.Item component={Link} to={paths.templates.getHref()}>
            {t('No saved messages yet. Create one…')}
          </Menu.Item>
        )}
        {items.map((template) => (
          <Menu.Item key={template.id} onClick={() => onPick(template)}>
            <Text size="sm" fw={500} truncate>
              {template.name}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={2}>
              {template.text}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
