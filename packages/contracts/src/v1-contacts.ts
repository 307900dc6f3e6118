import { z } from 'zod';
import { contactNameSchema, customFieldsSchema } from './contacts';
import { pageCursorSchema, safeString } from './text';

/**
 * /v1 contacts (scope `contacts:write`): add contacts to a group, list groups and a group's
 * contacts, remove a contact. The same rules as the Contacts screens (E.164 phones, unique per group).
 */

export const V1_MAX_CONTACTS = 1000;

export const V1_CONTACTS_API = {
  contacts: '/v1/contacts',
  groups: '/v1/groups',
  groupContacts: '/v1/groups/:id/contacts',
  groupContact: '/v1/groups/:id/contacts/:contactId',
} as const;

export const v1GroupSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contactCount: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Group' });

export const v1GroupListSchema = z.object({ data: z.array(v1GroupSchema) }).meta({ id: 'GroupList' });

export const v1ContactSchema = z
  .object({
    id: z.string(),
    groupId: z.string(),
    /** E.164, e.g. +14155550123. */
    phone: z.string(),
    name: z.string(),
    fields: z.record(z.string(), z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Contact' });
export type V1Contact = z.infer<typeof v1ContactSchema>;

export const v1ContactListSchema = z
  .object({ data: z.array(v1ContactSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'ContactList' });

export const v1ContactListQuerySchema = z.object({
  /** Matches names (case-insensitive) and phone digits, anywhere. */
  q: safeString().trim().max(100).optional(),
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const v1AddContactsSchema = z
  .strictObject({
    groupId: z.uuid('groupId must be a group id (GET /v1/groups lists them)'),
    contacts: z
      .array(
        z.strictObject({
          /** Any common format; stored as E.164 (national numbers are read in the account's country). */
          phone: safeString().trim().min(1, 'Give a phone number').max(40, 'Not a phone number'),
          name: contactNameSchema.optional(),
          fields: customFieldsSchema.optional(),
        }),
      )
      .min(1, 'Give at least one contact')
      .max(V1_MAX_CONTACTS, `At most ${V1_MAX_CONTACTS} contacts per request`),
  })
  .meta({ id: 'AddContactsRequest' });
export type V1AddContacts = z.infer<typeof v1AddContactsSchema>;

export const v1AddContactsResultSchema = z
  .object({
    /** The contacts added, in request order. */
    data: z.array(v1ContactSchema),
    /** Phones (E.164) the group already had, or given twice in the request: skipped. */
    duplicates: z.array(z.string()),
    /** Entries whose phone is not a valid number: skipped. `index` is their place in `contacts`. */
    invalid: z.array(z.object({ index: z.number(), phone: z.string(), message: z.string() })),
  })
  .meta({ id: 'AddContactsResult' });
export type V1AddContactsResult = z.infer<typeof v1AddContactsResultSchema>;
