import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useCrumbs } from '../route-handle';
import { useT } from '@/lib/i18n';

/** Breadcrumbs whose titles come from the route data. */
export function Breadcrumbs() {
  const crumbs = useCrumbs();
  const t = useT();
  if (crumbs.length < 2) return null;
  return (
    <nav aria-label={t('Breadcrumb')}>
      <MantineBreadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'wrap' } }}>
        {crumbs.map((crumb, index) => {
          const isLast = index === crumbs.length - 1;
          if (isLast) {
            return (
              <Text key={index} size="sm" fw={500} aria-current="page">
                {crumb.title}
              </Text>
            );
          }
          return crumb.to ? (
            <Anchor key={index} component={Link} to={crumb.to} size="sm">
              {crumb.title}
            </Anchor>
          ) : (
            <Text key={index} size="sm" c="dimmed">
              {crumb.title}
            </Text>
          );
        })}
      </MantineBreadcrumbs>
    </nav>
  );
}
