import type { V1AddContacts, V1AddContactsResult } from '@wren/contracts';
import { sql } from 'kysely';
import { type Db, transact } from '../../platform/db';
import { FieldError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { normaliseContactPhone } from '../contacts/contact-phone';
import type { ContactsService } from '../contacts/contacts.service';
import { adjustContactCount, requireGroup, type GroupsService } from '../contacts/groups.service';

/**
 * /v1 contacts on the contacts module: its phone rule (E.164 in the account's country), its group
 * check (another account's group is a 404), its listing (keyset) and removal.
 */
export function createV1ContactsService(deps: {
  db: Db;
  events: EventBus;
  contacts: ContactsService;
  groups: GroupsService;
  defaultCountry: string;
}) {
  const { db } = deps;

  return {
    /**
     * Adds up to 1,000 contacts to a group in one transaction. Invalid phones and phones the group
     * already has (or that repeat in the request) are reported and skipped; a request with no valid
     * phone at all is a 400. Safe to retry: a repeated request adds nothing and reports duplicates.
     */
    async add(accountId: string, body: V1AddContacts): Promise<V1AddContactsResult> {
      const invalid: V1AddContactsResult['invalid'] = [];
      const duplicates: string[] = [];
      const seen = new Set<string>();
      const valid: { phone: string; name: string; fields: string }[] = [];
      body.contacts.forEach((c, index) => {
        const phone = normaliseContactPhone(c.phone, deps.defaultCountry);
        if (!phone) {
          invalid.push({ index, phone: c.phone, message: 'Not a valid phone number' });
        } else if (seen.has(phone)) {
          duplicates.push(phone);
        } else {
          seen.add(phone);
          valid.push({ phone, name: c.name ?? '', fields: JSON.stringify(c.fields ?? {}) });
        }
      });
      if (valid.length === 0) {
        const first = invalid[0];
        throw new FieldError({
          [`contacts.${first?.index ?? 0}.phone`]: [
            `No valid phone number: ${invalid
              .slice(0, 5)
              .map((i) => i.phone)
              .join(', ')}${invalid.length > 5 ? ` and ${invalid.length - 5} more` : ''}`,
          ],
        });
      }
      const added = await transact(db, async (trx) => {
        await requireGroup(trx, accountId, body.groupId);
        const { rows } = await sql<{
          id: string;
          group_id: string;
          phone: string;
          name: string;
          fields: Record<string, string>;
          created_at: Date;
          updated_at: Date;
        }>`
          INSERT INTO contacts (account_id, group_id, phone, name, fields, updated_at)
          SELECT ${accountId}::uuid, ${body.groupId}::uuid, p, n, f::jsonb, now()
            FROM unnest(${valid.map((v) => v.phone)}::text[], ${valid.map((v) => v.name)}::text[],
                        ${valid.map((v) => v.fields)}::text[]) WITH ORDINALITY AS t(p, n, f, i)
           ORDER BY i
          ON CONFLICT (group_id, phone) DO NOTHING
          RETURNING id, group_id, phone, name, fields, created_at, updated_at`.execute(trx);
        await adjustContactCount(trx, body.groupId, rows.length);
        return rows;
      });
      const addedPhones = new Set(added.map((r) => r.phone));
      for (const v of valid) if (!addedPhones.has(v.phone)) duplicates.push(v.phone);
      if (added.length) deps.events.publish('group.changed', { accountId, groupId: body.groupId });
      const byPhone = new Map(
        added.map((r) => [
          r.phone,
          {
            id: r.id,
            groupId: r.group_id,
            phone: r.phone,
            name: r.name,
            fields: r.fields,
            createdAt: r.created_at.toISOString(),
            updatedAt: r.updated_at.toISOString(),
          },
        ]),
      );
      return {
        data: valid.flatMap((v) => (byPhone.has(v.phone) ? [byPhone.get(v.phone)!] : [])),
        duplicates,
        invalid,
      };
    },

    async groups(accountId: string) {
      return { data: (await deps.groups.list({ accountId })).items };
    },

    async list(accountId: string, groupId: string, q: { q?: string; cursor?: string; limit: number }) {
      const page = await deps.contacts.list({ accountId, groupId, query: { ...q, sort: 'created' } });
      return { data: page.items, nextCursor: page.nextCursor };
    },

    remove: (accountId: string, groupId: string, id: string) =>
      deps.contacts.remove({ accountId, groupId, id }),
  };
}
