import { Badge } from '@mantine/core';
import type { ApiKeyStatus } from '@wren/contracts';
import { useT } from '@/lib/i18n';

const COLORS: Record<ApiKeyStatus, string> = { active: 'teal', expired: 'yellow', revoked: 'gray' };
const LABELS: Record<ApiKeyStatus, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

export function KeyStatusBadge({ status }: { status: ApiKeyStatus }) {
  const t = useT();
  return (
    // Never narrower than its word (a squeezed table column would cut it to "ACT…").
    <Badge color={COLORS[status]} variant="light" miw="max-content">
      {t(LABELS[status])}
    </Badge>
  );
}
