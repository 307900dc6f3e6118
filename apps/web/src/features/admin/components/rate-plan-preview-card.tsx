import { useState } from 'react';
import { Button, Group, Paper, Text, TextInput } from '@mantine/core';
import type { PricePreview } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { previewPrice } from '../api/admin-api';
import { rich } from './common';

/** What a number costs per segment under a rate plan, and which prefix prices it. */
export function RatePlanPreviewCard({ planId: id }: { planId: string }) {
  const t = useT();
  const [to, setTo] = useState('');
  const [preview, setPreview] = useState<PricePreview | string | null>(null);

  const runPreview = async () => {
    try {
      setPreview(await previewPrice(id, to));
    } catch (e) {
      setPreview(messageOf(e));
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Text fw={600} mb="xs">
        {t('Price preview')}
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void runPreview();
        }}
      >
        <Group align="flex-end" gap="sm">
          <TextInput
            label={t('Phone number')}
            placeholder="+447700900123"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          <Button type="submit" variant="default">
            {t('Preview')}
          </Button>
        </Group>
      </form>
      {typeof preview === 'string' && <FormAlert message={preview} />}
      {preview && typeof preview === 'object' && (
        <Text size="sm" mt="sm" data-testid="price-preview">
          {rich(
            t,
            !preview.prefix
              ? '{{to}} costs {{price}} per segment (every other destination).'
              : preview.countryName
                ? '{{to}} costs {{price}} per segment (prefix {{prefix}}, {{country}}).'
                : '{{to}} costs {{price}} per segment (prefix {{prefix}}).',
            {
              to: preview.to,
              price: <b>{formatMoney(preview.priceMinor, preview.currency)}</b>,
              prefix: preview.prefix ?? '',
              country: preview.countryName ?? '',
            },
          )}
        </Text>
      )}
    </Paper>
  );
}
