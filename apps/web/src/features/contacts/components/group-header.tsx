import { Can } from '@/components/can';
import { Anchor, Badge, Button, Group, Skeleton, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { GroupDto } from '@wren/contracts';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { contactsLabel } from './groups-table';
import { IconArrowLeft, IconDownload, IconPlus, IconUpload } from './icons';

interface GroupHeaderProps {
  group: GroupDto | undefined;
  exporting: boolean;
  onImport: () => void;
  onExport: () => void;
  onAdd: () => void;
}

/** The group's name and size, with its import, export and add actions. */
export function GroupHeader({ group, exporting, onImport, onExport, onAdd }: GroupHeaderProps) {
  const t = useT();
  return (
    <div>
      <Anchor component={Link} to={paths.groups.list.getHref()} size="sm" c="dimmed">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} />
          {t('All groups')}
        </Group>
      </Anchor>
      <Group justify="space-between" mt={6} wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          {group ? (
            <>
              <Title order={2} size="h3" lineClamp={1} data-testid="group-name">
                {group.name}
              </Title>
              <Badge variant="light" size="lg" tt="none" data-testid="group-count">
                {contactsLabel(group.contactCount)}
              </Badge>
            </>
          ) : (
            <Skeleton height={28} width={260} />
          )}
        </Group>
        <Group gap="sm">
          <Can permission="contacts:write">
            <Button variant="default" leftSection={<IconUpload />} onClick={onImport} disabled={!group}>
              {t('Import')}
            </Button>
          </Can>
          <Button
            variant="default"
            leftSection={<IconDownload />}
            onClick={onExport}
            loading={exporting}
            disabled={!group || group.contactCount === 0}
          >
            {t('Export CSV')}
          </Button>
          <Can permission="contacts:write">
            <Button leftSection={<IconPlus />} onClick={onAdd} disabled={!group}>
              {t('Add contact')}
            </Button>
          </Can>
        </Group>
      </Group>
    </div>
  );
}
