import { useMemo } from 'react';
import { Select, type SelectProps } from '@mantine/core';
import { useT } from '@/lib/i18n';

/** The IANA zones the browser knows, plus UTC and the current value (which an old browser may lack). */
export function timeZoneOptions(current: string | null | undefined): string[] {
  const zones = new Set<string>(Intl.supportedValuesOf('timeZone'));
  zones.add('UTC');
  if (current) zones.add(current);
  return [...zones].sort();
}

/** A searchable list of the IANA time zones; a zone is always chosen (no deselect). */
export function TimezoneSelect(props: Omit<SelectProps, 'data'>) {
  const data = useMemo(() => timeZoneOptions(props.value), [props.value]);
  const t = useT();
  return (
    <Select
      searchable
      nothingFoundMessage={t('No matching time zone')}
      maxDropdownHeight={280}
      allowDeselect={false}
      data={data}
      {...props}
    />
  );
}
