import { useForm } from '@mantine/form';
import { contactNameSchema, phoneInputSchema, type ContactDto } from '@wren/contracts';
import { z } from 'zod';
import { zodResolver } from '@/lib/zod-resolver';
import { fieldRowErrors, toFieldRows, type FieldRow } from '../contact-fields';

export interface ContactFormValues {
  phone: string;
  name: string;
  fields: FieldRow[];
}

const validateBase = zodResolver(z.object({ phone: phoneInputSchema, name: contactNameSchema }));

/** The add/edit contact form: phone and name from the contract, custom field rows checked here. */
export function useContactForm(contact: ContactDto | null) {
  return useForm<ContactFormValues>({
    initialValues: {
      phone: contact?.phone ?? '',
      name: contact?.name ?? '',
      fields: contact ? toFieldRows(contact.fields) : [],
    },
    validate: (values) => ({ ...validateBase(values), ...fieldRowErrors(values.fields) }),
  });
}

export type ContactFormApi = ReturnType<typeof useContactForm>;
