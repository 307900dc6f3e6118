import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CONTACTS_API,
  fillApiPath,
  type ContactDto,
  type CreateContactInput,
  type UpdateContactInput,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

export async function createContact(groupId: string, input: CreateContactInput): Promise<ContactDto> {
  const { data } = await http.post<ContactDto>(fillApiPath(CONTACTS_API.contacts, { id: groupId }), input);
  return data;
}

/** `fields`, when given, replaces the contact's whole map. */
export async function updateContact(
  groupId: string,
  contactId: string,
  input: UpdateContactInput,
): Promise<ContactDto> {
  const { data } = await http.patch<ContactDto>(
    fillApiPath(CONTACTS_API.contact, { id: groupId, contactId }),
    input,
  );
  return data;
}

/** Adds a contact, or updates one when `contactId` is given; refreshes the group and its contacts. */
export function useSaveContact(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ contactId, input }: { contactId?: string; input: CreateContactInput }) =>
      contactId ? updateContact(groupId, contactId, input) : createContact(groupId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['groups'] }),
  });
}
