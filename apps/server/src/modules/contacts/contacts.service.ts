import { Readable } from 'node:stream';
import {
  ErrorCode,
  type ContactDto,
  type ContactPage,
  type CreateContactInput,
  type ListContactsQuery,
  type UpdateContactInput,
} from '@wren/contracts';
import { z } from 'zod';
import { type Db, transact } from '../../platform/db';
import { AppError, FieldError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { cursorId, cursorText, cursorTime, decodeCursor, encodeCursor } from '../../shared/cursor';
import { isUniqueViolation } from '../../shared/unique-violation';
import { normaliseContactPhone } from './contact-phone';
import * as repo from './contacts.repository';
import { exportGroupCsv } from './contacts-export';
import { adjustContactCount } from './groups.repository';
import { requireGroup } from './groups.service';

export function toContact(row: repo.ContactRow): ContactDto {
  return {
    id: row.id,
    groupId: row.group_id,
    phone: row.phone,
    name: row.name,
    fields: row.fields,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const cursorSchema = z.discriminatedUnion('s', [
  z.object({ s: z.literal('c'), t: cursorTime, id: cursorId }),
  z.object({ s: z.literal('n'), n: cursorText, id: cursorId }),
]);

const alreadyInGroup = (phone: string) =>
  new AppError(ErrorCode.CONFLICT, `${phone} is already in this group`);

/** Contacts of a group: E.164 phone (unique in the group), name and custom fields. */
export function createContactsService(deps: { db: Db; events: EventBus; defaultCountry: string }) {
  const { db, events } = deps;
  const changed = (accountId: string, groupId: string) =>
    events.publish('group.changed', { accountId, groupId });
  const normalise = (phone: string) => {
    const e164 = normaliseContactPhone(phone, deps.defaultCountry);
    if (!e164) throw new FieldError({ phone: ['Enter a valid phone number, for example +14155550123'] });
    return e164;
  };

  const get = async (input: { accountId: string; groupId: string; id: string }): Promise<ContactDto> => {
    const row = await repo.findContact(db, input.accountId, input.groupId, input.id);
    if (!row) throw notFound('Contact');
    return toContact(row);
  };

  /** Deletes the listed contacts of the group; ids of other groups are ignored. */
  const bulkRemove = async (input: {
    accountId: string;
    groupId: string;
    ids: string[];
  }): Promise<{ deleted: number }> => {
    const deleted = await transact(db, async (trx) => {
      await requireGroup(trx, input.accountId, input.groupId);
      const n = await repo.deleteContacts(trx, input.accountId, input.groupId, [...new Set(input.ids)]);
      await adjustContactCount(trx, input.groupId, -n);
      return n;
    });
    if (deleted > 0) changed(input.accountId, input.groupId);
    return { deleted };
  };

  return {
    async list(input: {
      accountId: string;
      groupId: string;
      query: ListContactsQuery;
    }): Promise<ContactPage> {
      const { query } = input;
      await requireGroup(db, input.accountId, input.groupId);
      const after = query.cursor ? decodeCursor(query.cursor, cursorSchema) : undefined;
      if (after && (after.s === 'n') !== (query.sort === 'name')) {
        throw new FieldError({ cursor: ['This page link belongs to another sort order; start again'] });
      }
      const rows = await repo.listContacts(db, { ...input, ...query, after, limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      let nextCursor: string | null = null;
      if (rows.length > query.limit && last) {
        nextCursor = encodeCursor(
          query.sort === 'name'
            ? { s: 'n', n: last.name_key, id: last.id }
            : { s: 'c', t: last.created_key, id: last.id },
        );
      }
      return { items: page.map(toContact), nextCursor };
    },

    get,

    async create(input: {
      accountId: string;
      groupId: string;
      contact: CreateContactInput;
    }): Promise<ContactDto> {
      const phone = normalise(input.contact.phone);
      const row = await transact(db, async (trx) => {
        await requireGroup(trx, input.accountId, input.groupId);
        const created = await repo.insertContact(trx, {
          accountId: input.accountId,
          groupId: input.groupId,
          phone,
          name: input.contact.name ?? '',
          fields: input.contact.fields ?? {},
        });
        if (!created) throw alreadyInGroup(phone);
        await adjustContactCount(trx, input.groupId, 1);
        return created;
      });
      changed(input.accountId, input.groupId);
      return toContact(row);
    },

    /** Changes phone, name or the whole custom field map. */
    async update(input: { accountId: string; groupId: string; id: string; patch: UpdateContactInput }) {
      const patch = {
        ...input.patch,
        phone: input.patch.phone === undefined ? undefined : normalise(input.patch.phone),
      };
      let found: boolean;
      try {
        found = await repo.updateContact(db, input.accountId, input.groupId, input.id, patch);
      } catch (err) {
        if (isUniqueViolation(err, 'contacts_group_phone_key')) throw alreadyInGroup(patch.phone ?? '');
        throw err;
      }
      if (!found) throw notFound('Contact');
      changed(input.accountId, input.groupId);
      return get(input);
    },

    async remove(input: { accountId: string; groupId: string; id: string }): Promise<void> {
      const { deleted } = await bulkRemove({ ...input, ids: [input.id] });
      if (deleted === 0) throw notFound('Contact');
    },

    bulkRemove,

    /** The group as CSV (phone, name, custom fields), streamed in keyset batches. */
    async exportCsv(input: {
      accountId: string;
      groupId: string;
    }): Promise<{ fileName: string; stream: Readable }> {
      const group = await requireGroup(db, input.accountId, input.groupId);
      const stream = Readable.from(exportGroupCsv(db, input));
      return { fileName: `${group.name}.csv`, stream };
    },
  };
}

export type ContactsService = ReturnType<typeof createContactsService>;
