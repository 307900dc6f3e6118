import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { MAX_MARKUP_BP } from '@wren/contracts';
import { IconPlus, IconTrash } from '@/components/icons';
import { FormAlert } from '@/components/form-alert';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { useSetPricing, useSubAccountPricing } from '../api/sub-accounts';
import { useT } from '@/lib/i18n';

/** Percent in the form, whole basis points on the wire (12.5 % = 1250 bp). */
const toBp = (percent: number | string) => Math.round(Number(percent) * 100);
const MAX_PERCENT = MAX_MARKUP_BP / 100;

/** The sub-account's prices: yours, plus a markup in percent, optionally per country. */
export function PricingCard({ id }: { id: string }) {
  const pricing = useSubAccountPricing(id);
  const save = useSetPricing(id);
  const t = useT();
  const [markup, setMarkup] = useState<number | string>(0);
  const [countries, setCountries] = useState<{ country: string | null; percent: number | string }[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!pricing.data) return;
    setMarkup(pricing.data.markupBp / 100);
    setCountries(pricing.data.countries.map((c) => ({ country: c.country, percent: c.markupBp / 100 })));
  }, [pricing.data]);

  if (pricing.isPending) return <Loader size="sm" aria-label={t('Loading prices')} />;
  if (pricing.isError) return <Alert color="red">{pricing.error.message}</Alert>;
  const options = [...new Set(pricing.data.prices.map((p) => p.country).filter((c): c is string => !!c))];

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const all = [markup, ...countries.map((c) => c.percent)];
    if (all.some((p) => p === '' || Number(p) < 0 || Number(p) > MAX_PERCENT))
      return setError(t('Each markup is a percentage from 0 to {{max}}', { max: MAX_PERCENT }));
    if (countries.some((c) => !c.country)) return setError(t('Choose a country for each country markup'));
    setError(null);
    save.mutate(
      {
        markupBp: toBp(markup),
        countries: countries.map((c) => ({ country: c.country ?? '', markupBp: toBp(c.percent) })),
      },
      { onSuccess: () => toast.success(t('Prices saved: its next sends use them')) },
    );
  };

  return (
    <Card withBorder padding="md">
      <form onSubmit={submit} noValidate aria-label={t('Prices')}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('Prices')}
          </Title>
          <Text size="sm" c="dimmed">
            {t(
              'Your own prices plus a markup. 0 % charges exactly your prices. Each price is rounded up to a whole cent per message part.',
            )}
          </Text>
          <NumberInput
            label={t('Markup on your prices (%)')}
            min={0}
            max={MAX_PERCENT}
            decimalScale={2}
            value={markup}
            onChange={setMarkup}
            w={220}
          />
          {countries.map((c, i) => (
            <Group key={i} align="flex-end" wrap="wrap">
              <Select
                label={t('Country')}
                data={options}
                value={c.country}
                searchable
                onChange={(v) => setCountries((l) => l.map((x, j) => (j === i ? { ...x, country: v } : x)))}
                w={160}
              />
              <NumberInput
                label={t('Markup (%)')}
                min={0}
                max={MAX_PERCENT}
                decimalScale={2}
                value={c.percent}
                onChange={(v) => setCountries((l) => l.map((x, j) => (j === i ? { ...x, percent: v } : x)))}
                w={140}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={
                  c.country
                    ? t('Remove the markup for {{country}}', { country: c.country })
                    : t('Remove the markup for this country')
                }
                onClick={() => setCountries((l) => l.filter((_, j) => j !== i))}
                mb={4}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <FormAlert message={error ?? (save.error ? save.error.message : null)} />
          <Group>
            <Button
              variant="default"
              leftSection={<IconPlus size={14} />}
              onClick={() => setCountries((l) => [...l, { country: null, percent: markup }])}
            >
              {t('Country markup')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('Save prices')}
            </Button>
          </Group>
          <Table.ScrollContainer minWidth={300}>
            <Table aria-label={t('Prices per message part')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Destination')}</Table.Th>
                  <Table.Th ta="right">{t('Your price')}</Table.Th>
                  <Table.Th ta="right">{t('Their price')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {pricing.data.prices.map((p) => (
                  <Table.Tr key={p.prefix}>
                    <Table.Td>{p.prefix ? `${p.prefix} ${p.country ?? ''}` : t('Everywhere else')}</Table.Td>
                    <Table.Td ta="right">{formatMoney(p.parentPriceMinor, pricing.data.currency)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(p.childPriceMinor, pricing.data.currency)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      </form>
    </Card>
  );
}
