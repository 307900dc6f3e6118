import { Badge } from '@mantine/core';
import type { ApiKeyStatus } from '@wren/contracts';

const COLORS: Record<ApiKeyStatus, string> = { active: 'teal', expired: 'yellow', revoked: 'gray' };
const LABELS: Record<ApiKeyStatus, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

export function KeyStatusBadge({ status }: { status: ApiKeyStatus }) {
  return (
    // Never narrower than its word (a squeezed table column would cut it to "ACT…").
    <Badge color={COLORS[status]} variant="light" miw="max-content">
      {LABELS[status]}
    </Badge>
  );
}
