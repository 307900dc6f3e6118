import { useMemo } from 'react';
import { Select, type SelectProps } from '@mantine/core';

function timeZones(current: string | null | undefined): string[] {
  const zones = new Set<string>(Intl.supportedValuesOf('timeZone'));
  zones.add('UTC');
  if (current) zones.add(current);
  return [...zones].sort();
}

/** A searchable list of the IANA time zones the browser knows. */
export function TimezoneSelect(props: Omit<SelectProps, 'data'>) {
  const data = useMemo(() => timeZones(props.value), [props.value]);
  return (
    <Select
      searchable
      nothingFoundMessage="No matching time zone"
      maxDropdownHeight={280}
      data={data}
      {...props}
    />
  );
}
