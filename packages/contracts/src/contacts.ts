import { z } from 'zod';
import { pageCursorSchema, safeString } from './text';
import { phoneInputSchema } from './auth';

/**
 * Contact group, contact and import endpoints (issue #6). `:id` is the group id.
 * The upload URL contains `fileUpload` so the web client shows a progress bar, not the busy overlay.
 */
export const CONTACTS_API = {
  groups: '/api/groups',
  group: '/api/groups/:id',
  /** The custom field keys the group's contacts have: {{key}} placeholders of a campaign to it. */
  fields: '/api/groups/:id/fields',
  contacts: '/api/groups/:id/contacts',
  contact: '/api/groups/:id/contacts/:contactId',
  bulkDelete: '/api/groups/:id/contacts/bulk-delete',
  export: '/api/groups/:id/contacts/export',
  upload: '/api/groups/:id/contacts/fileUpload',
  import: '/api/groups/:id/imports/:importId',
  importCommit: '/api/groups/:id/imports/:importId/commit',
  importReport: '/api/groups/:id/imports/:importId/report',
} as const;

/** Default upload limit for contact imports; the server's IMPORT_MAX_BYTES may change it. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_PREVIEW_ROWS = 10;

export const groupNameSchema = safeString()
  .trim()
  .min(1, 'Group name is required')
  .max(100, 'Group name must be at most 100 characters');
export const createGroupSchema = z.object({ name: groupNameSchema });
export const renameGroupSchema = z.object({ name: groupNameSchema });
export type GroupInput = z.infer<typeof createGroupSchema>;

export const groupDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  contactCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GroupDto = z.infer<typeof groupDtoSchema>;
export const groupListSchema = z.object({ items: z.array(groupDtoSchema) });
export type GroupList = z.infer<typeof groupListSchema>;
/** GET …/fields: each custom field key some contact of the group has, sorted (name and phone are built in). */
export const groupFieldsSchema = z.object({ fields: z.array(z.string()) });
export type GroupFields = z.infer<typeof groupFieldsSchema>;

/** Custom field keys are usable as `{{key}}` placeholders; `phone` and `name` are built in. */
export const FIELD_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
export const RESERVED_FIELD_KEYS = ['phone', 'name'] as const;
export const MAX_CUSTOM_FIELDS = 50;

export const fieldKeySchema = safeString()
  .regex(
    FIELD_KEY_PATTERN,
    'A field name must start with a letter or _ and use only letters, digits and _ (at most 40)',
  )
  .refine(
    (k) => !(RESERVED_FIELD_KEYS as readonly string[]).includes(k.toLowerCase()),
    'phone and name are built-in fields; choose another field name',
  );

export const customFieldsSchema = z
  .record(fieldKeySchema, safeString().max(500, 'A field value must be at most 500 characters'))
  .refine((f) => Object.keys(f).length <= MAX_CUSTOM_FIELDS, `At most ${MAX_CUSTOM_FIELDS} custom fields`);

export const contactNameSchema = safeString().trim().max(100, 'Name must be at most 100 characters');

export const createContactSchema = z.object({
  phone: phoneInputSchema,
  name: contactNameSchema.default(''),
  fields: customFieldsSchema.default({}),
});
export type CreateContactInput = z.input<typeof createContactSchema>;

/** `fields`, when given, replaces the whole map. */
export const updateContactSchema = z.object({
  phone: phoneInputSchema.optional(),
  name: contactNameSchema.optional(),
  fields: customFieldsSchema.optional(),
});
export type UpdateContactInput = z.infer<typeof updateContactSchema>;

export const listContactsQuerySchema = z.object({
  /** Matches names (case-insensitive, anywhere) and phone digits (anywhere). */
  q: safeString().trim().max(100).optional(),
  sort: z.enum(['created', 'name']).default('created'),
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListContactsQuery = z.infer<typeof listContactsQuerySchema>;

export const bulkDeleteContactsSchema = z.object({
  ids: z
    .array(z.uuid('Each id must be a contact id'))
    .min(1, 'Choose at least one contact')
    .max(1000, 'Delete at most 1000 contacts at a time'),
});

export const contactDtoSchema = z.object({
  id: z.string(),
  groupId: z.string(),
  phone: z.string(),
  name: z.string(),
  fields: z.record(z.string(), z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactDto = z.infer<typeof contactDtoSchema>;
export const contactPageSchema = z.object({
  items: z.array(contactDtoSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ContactPage = z.infer<typeof contactPageSchema>;

/** POST …/contacts/bulk-delete */
export const bulkDeleteResultSchema = z.object({ deleted: z.number() });

export const importMappingSchema = z.object({
  /** Column names as returned by the upload. */
  phone: safeString().min(1, 'Choose the column that holds the phone number'),
  name: safeString().min(1).optional(),
  fields: z
    .record(fieldKeySchema, safeString().min(1))
    .refine((f) => Object.keys(f).length <= MAX_CUSTOM_FIELDS, `At most ${MAX_CUSTOM_FIELDS} custom fields`)
    .optional(),
});
export type ImportMapping = z.infer<typeof importMappingSchema>;

/** Without a mapping (or a body) the suggested one from the upload is used. */
export const commitImportSchema = z
  .object({ mapping: importMappingSchema.optional() })
  .nullish()
  .transform((b) => b ?? {});

export const IMPORT_FILE_TYPES = ['csv', 'xlsx'] as const;
export type ImportFileType = (typeof IMPORT_FILE_TYPES)[number];
export const IMPORT_STATUSES = ['uploaded', 'running', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const importUploadDtoSchema = z.object({
  importId: z.string(),
  fileName: z.string(),
  fileType: z.enum(IMPORT_FILE_TYPES),
  /** Column names: the header row, or "Column 1", "Column 2", … when the file has none. */
  columns: z.array(z.string()),
  hasHeader: z.boolean(),
  /** The first data rows, cells aligned with `columns`. */
  previewRows: z.array(z.array(z.string())),
  rowCountGuess: z.number(),
  suggestedMapping: z.object({
    phone: z.string().nullable(),
    name: z.string().nullable(),
    fields: z.record(z.string(), z.string()),
  }),
});
export type ImportUploadDto = z.infer<typeof importUploadDtoSchema>;

export const importDtoSchema = z.object({
  id: z.string(),
  groupId: z.string(),
  status: z.enum(IMPORT_STATUSES),
  fileName: z.string(),
  fileType: z.enum(IMPORT_FILE_TYPES),
  rowCountGuess: z.number(),
  /** Data rows read so far; processed = inserted + invalid + duplicates. */
  processed: z.number(),
  inserted: z.number(),
  invalid: z.number(),
  /** Within the file and against the group. */
  duplicates: z.number(),
  error: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type ImportDto = z.infer<typeof importDtoSchema>;
