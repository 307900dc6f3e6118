import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatMoney } from '@/lib/money';

/** A send whose cost is over the balance (known only to a role that reads the balance). */
export interface OverBalance {
  costMinor: number;
  balanceMinor: number;
  currency: string;
}

/** Whether a known cost is over a known balance; null when either is unknown or it fits. */
export function overBalance(
  costMinor: number | null | undefined,
  balance: { balanceMinor: number; currency: string } | undefined,
): OverBalance | null {
  if (costMinor === null || costMinor === undefined || !balance || costMinor <= balance.balanceMinor)
    return null;
  return { costMinor, balanceMinor: balance.balanceMinor, currency: balance.currency };
}

const REASON_ID = 'send-blocked-reason';

/**
 * The send forms' submit button: disabled, with the reason beside it, while the send would cost
 * more than the balance (issue 47: a send was refused only after the confirm step). The one button
 * of Single, Bulk and Personalised SMS.
 */
export function SendButton({ label, over }: { label: string; over: OverBalance | null }) {
  const t = useT();
  return (
    <Stack gap={6} align="flex-end">
      <Group justify="flex-end">
        <Button
          type="submit"
          size="md"
          disabled={over !== null}
          aria-describedby={over ? REASON_ID : undefined}
        >
          {label}
        </Button>
      </Group>
      {over && (
        <Text id={REASON_ID} size="sm" c="red" ta="right" data-testid="send-blocked">
          {t('This send costs {{cost}}, more than your balance of {{balance}}.', {
            cost: formatMoney(over.costMinor, over.currency),
            balance: formatMoney(over.balanceMinor, over.currency),
          })}{' '}
          <Anchor component={Link} to={paths.billing.balance.getHref()} size="sm" c="red" underline="always">
            {t('Top up')}
          </Anchor>{' '}
          {t('or send to fewer recipients.')}
        </Text>
      )}
    </Stack>
  );
}
