import { ErrorCode, type GroupDto, type GroupList } from '@wren/contracts';
import type { Db } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { isUniqueViolation } from '../../shared/unique-violation';
import * as repo from './groups.repository';

export function toGroup(row: repo.GroupRow): GroupDto {
  return {
    id: row.id,
    name: row.name,
    contactCount: row.contact_count,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const nameTaken = (name: string) =>
  new AppError(ErrorCode.CONFLICT, `You already have a group named "${name}"`);

/** The account's group, or a 404 (also for another account's group). */
export async function requireGroup(db: Db, accountId: string, groupId: string) {
  const group = await repo.findGroup(db, accountId, groupId);
  if (!group) throw notFound('Group');
  return group;
}

/**
 * Moves the group's cached contact count by `delta`; call in the transaction that inserted or
 * deleted its contacts. Public for /v1's bulk contact insert (v1-contacts.ts), which writes the
 * contacts in one statement of its own and keeps the count as the contacts service does.
 */
export function adjustContactCount(trx: Db, groupId: string, delta: number) {
  return repo.adjustContactCount(trx, groupId, delta);
}

/** Contact groups: names unique per account (any case), with a cached contact count. */
export function createGroupsService(deps: { db: Db; events: EventBus }) {
  const { db, events } = deps;
  const changed = (accountId: string, groupId?: string) =>
    events.publish('group.changed', { accountId, groupId });

  return {
    async list(input: { accountId: string }): Promise<GroupList> {
      return { items: (await repo.listGroups(db, input.accountId)).map(toGroup) };
    },

    async get(input: { accountId: string; id: string }): Promise<GroupDto> {
      return toGroup(await requireGroup(db, input.accountId, input.id));
    },

    async create(input: { accountId: string; name: string }): Promise<GroupDto> {
      const row = await repo.insertGroup(db, input.accountId, input.name);
      if (!row) throw nameTaken(input.name);
      changed(input.accountId, row.id);
      return toGroup(row);
    },

    async rename(input: { accountId: string; id: string; name: string }): Promise<GroupDto> {
      let row: repo.GroupRow | undefined;
      try {
        row = await repo.renameGroup(db, input.accountId, input.id, input.name);
      } catch (err) {
        if (isUniqueViolation(err, 'contact_groups_name_key')) throw nameTaken(input.name);
        throw err;
      }
      if (!row) throw notFound('Group');
      changed(input.accountId, row.id);
      return toGroup(row);
    },

    /** Deletes the group with its contacts and imports. */
    async remove(input: { accountId: string; id: string }): Promise<void> {
      if (!(await repo.deleteGroup(db, input.accountId, input.id))) throw notFound('Group');
      changed(input.accountId, input.id);
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
