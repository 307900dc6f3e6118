import { Badge } from '@mantine/core';
import type { SmppAccountDto } from '@wren/contracts';

export function SmppStatusBadge({ status }: { status: SmppAccountDto['status'] }) {
  return (
    // Never narrower than its word (a squeezed table column would cut it short).
    <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light" miw="max-content">
      {status === 'active' ? 'Active' : 'Disabled'}
    </Badge>
  );
}
