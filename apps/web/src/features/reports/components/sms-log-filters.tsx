import { useEffect, useRef, useState } from 'react';
import { translate, useT } from '@/lib/i18n';
import { Badge, Box, Button, Card, Collapse, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { useDebouncedCallback } from '@mantine/hooks';
import { MESSAGE_STATUSES } from '@wren/contracts';
import { activeFilterCount, EMPTY_FILTERS, type LogFilters } from '../log-filters';
import { useIsMobile } from '../use-is-mobile';
import { statusLabel } from '../format';

interface SmsLogFiltersProps {
  value: LogFilters;
  onChange: (filters: LogFilters) => void;
}

const day = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

function presets(): { value: [string, string]; label: string }[] {
  const today = new Date();
  const ago = (n: number) => day(new Date(today.getFullYear(), today.getMonth(), today.getDate() - n));
  return [
    { value: [ago(0), ago(0)], label: translate('Today') },
    { value: [ago(1), ago(1)], label: translate('Yesterday') },
    { value: [ago(6), ago(0)], label: translate('Last 7 days') },
    { value: [ago(29), ago(0)], label: translate('Last 30 days') },
  ];
}

/** The log filters; text filters apply as you type (debounced). */
export function SmsLogFilters({ value, onChange: emit }: SmsLogFiltersProps) {
  const t = useT();
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(false);
  const sent = useRef<LogFilters | null>(null);
  const onChange = (next: LogFilters) => {
    sent.current = next;
    emit(next);
  };
  const [text, setText] = useState({ recipient: value.recipient, sender: value.sender, text: value.text });
  const [range, setRange] = useState<DatesRangeValue<string>>([value.from, value.to]);
  const applyText = useDebouncedCallback((next: typeof text) => onChange({ ...value, ...next }), 400);

  // Follow the address when it changes from outside (back/forward, "Clear filters").
  useEffect(() => {
    // Our own change coming back (trimmed) is not a reason to overwrite what is being typed.
    const own = sent.current;
    const same = (a: string, b: string) => a.trim() === b.trim();
    if (
      own &&
      same(own.recipient, value.recipient) &&
      same(own.sender, value.sender) &&
      same(own.text, value.text)
    ) {
      if (own.from === value.from && own.to === value.to) return;
    }
    setText({ recipient: value.recipient, sender: value.sender, text: value.text });
    setRange([value.from, value.to]);
  }, [value.recipient, value.sender, value.text, value.from, value.to]);

  const typed = (key: keyof typeof text) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const next = { ...text, [key]: event.currentTarget.value };
    setText(next);
    applyText(next);
  };

  const flushOnEnter = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') applyText.flush();
  };

  const pickRange = (next: DatesRangeValue<string>) => {
    setRange(next);
    const [from, to] = next;
    if ((from && to) || (!from && !to)) onChange({ ...value, ...text, from, to });
  };

  const clear = () => {
    applyText.cancel();
    setText({ recipient: '', sender: '', text: '' });
    setRange([null, null]);
    onChange(EMPTY_FILTERS);
  };
  const active = activeFilterCount({ ...value, ...text });
  const statusOptions = MESSAGE_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }));

  const fields = (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 6 }} spacing="sm" verticalSpacing="sm">
      <DatePickerInput
        type="range"
        label={t('Date range')}
        placeholder={t('Any date')}
        value={range}
        onChange={pickRange}
        presets={presets()}
        clearable
        allowSingleDateInRange
        maxDate={day(new Date())}
        valueFormat="D MMM YYYY"
        popoverProps={{ withinPortal: true }}
      />
      <Select
        label={t('Status')}
        placeholder={t('Any status')}
        data={statusOptions}
        value={value.status}
        onChange={(status) => onChange({ ...value, ...text, status })}
        clearable
        comboboxProps={{ withinPortal: true }}
      />
      <TextInput
        label={t('Recipient')}
        placeholder={t('Number or part of it')}
        value={text.recipient}
        onChange={typed('recipient')}
        onKeyDown={flushOnEnter}
        maxLength={32}
        inputMode="tel"
      />
      <TextInput
        label={t('Sender')}
        placeholder={t('Exact sender ID')}
        value={text.sender}
        onChange={typed('sender')}
        onKeyDown={flushOnEnter}
        maxLength={15}
      />
      <TextInput
        label={t('Text')}
        placeholder={t('Words in the message')}
        value={text.text}
        onChange={typed('text')}
        onKeyDown={flushOnEnter}
        maxLength={100}
      />
      {!isMobile && (
        <Button variant="default" style={{ alignSelf: 'end' }} disabled={!active} onClick={clear}>
          {t('Clear filters')}
        </Button>
      )}
    </SimpleGrid>
  );

  if (!isMobile) {
    return (
      <Card withBorder radius="md" padding="md">
        {fields}
      </Card>
    );
  }
  return (
    <Card withBorder radius="md" padding="sm">
      <Group justify="space-between">
        <Button
          variant="default"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls="sms-log-filters"
          rightSection={active ? <Badge size="sm">{active}</Badge> : undefined}
        >
          {t('Filters')}
        </Button>
        {active > 0 && (
          <Button variant="subtle" onClick={clear}>
            {t('Clear filters')}
          </Button>
        )}
      </Group>
      <Collapse expanded={open} id="sms-log-filters">
        <Box pt="sm">{fields}</Box>
      </Collapse>
    </Card>
  );
}
