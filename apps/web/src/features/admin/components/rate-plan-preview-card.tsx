import { useState } from 'react';
import { Button, Group, Paper, Text, TextInput } from '@mantine/core';
import type { PricePreview } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { previewPrice } from '../api/admin-api';

/** What a number costs per segment under a rate plan, and which prefix prices it. */
export function RatePlanPreviewCard({ planId: id }: { planId: string }) {
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
        Price preview
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void runPreview();
        }}
      >
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Phone number"
            placeholder="+447700900123"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          <Button type="submit" variant="default">
            Preview
          </Button>
        </Group>
      </form>
      {typeof preview === 'string' && <FormAlert message={preview} />}
      {preview && typeof preview === 'object' && (
        <Text size="sm" mt="sm" data-testid="price-preview">
          {preview.to} costs <b>{formatMoney(preview.priceMinor, preview.currency)}</b> per segment
          {preview.prefix
            ? ` (prefix ${preview.prefix}${preview.countryName ? `, ${preview.countryName}` : ''})`
            : ' (every other destination)'}
          .
        </Text>
      )}
    </Paper>
  );
}
