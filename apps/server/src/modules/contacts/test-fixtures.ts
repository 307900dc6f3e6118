import { expect } from 'vitest';
import type { ApiClient, ApiResponse } from '../../../test/client';
import type { Db } from '../../platform/db';
import { toE164 } from '../../shared/phone';

/** Valid UK mobile numbers +44 7911 nnnnnn, checked with toE164 as they are made. */
export function ukMobiles(count: number, start = 0): string[] {
  const out: string[] = [];
  for (let i = start; i < start + count; i++) {
    const n = `+447911${String(i).padStart(6, '0')}`;
    if (toE164(n, 'US') !== n) throw new Error(`generated an invalid number ${n}`);
    out.push(n);
  }
  return out;
}

export async function createGroup(c: ApiClient, name = `Group ${Math.random().toString(36).slice(2, 8)}`) {
  const res = await c.post('/api/groups', { name });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string };
}

/** A multipart upload to the group's fileUpload URL, as the browser sends it. */
export function upload(
  c: ApiClient,
  groupId: string,
  fileName: string,
  content: string | Uint8Array,
  type = 'text/csv',
): Promise<ApiResponse> {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), fileName);
  return c.request('POST', `/api/groups/${groupId}/contacts/fileUpload`, undefined, { raw: form });
}

/** Polls the import until it has finished. */
export async function waitForImport(c: ApiClient, groupId: string, importId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await c.get(`/api/groups/${groupId}/imports/${importId}`);
    expect(res.status).toBe(200);
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    if (Date.now() > deadline) throw new Error(`import still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Upload, commit (with the suggested mapping unless one is given) and wait for the result. */
export async function importFile(
  c: ApiClient,
  groupId: string,
  fileName: string,
  content: string | Uint8Array,
  mapping?: unknown,
  type?: string,
) {
  const up = await upload(c, groupId, fileName, content, type);
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const commit = await c.post(
    `/api/groups/${groupId}/imports/${up.body.importId}/commit`,
    mapping ? { mapping } : undefined,
  );
  expect(commit.status, JSON.stringify(commit.body)).toBe(202);
  return { upload: up.body, result: await waitForImport(c, groupId, up.body.importId) };
}

/** Every directory row of an account, to show a refused request changed nothing. */
export async function snapshot(db: Db, accountId: string) {
  const [groups, contacts, imports, issues] = await Promise.all([
    db.selectFrom('contact_groups').selectAll().where('account_id', '=', accountId).orderBy('id').execute(),
    db
      .selectFrom('contacts')
      .select(['id', 'group_id', 'phone', 'name', 'fields', 'updated_at'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('contact_imports')
      .select(['id', 'status', 'processed', 'inserted', 'mapping', 'heartbeat_at'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('contact_import_issues as i')
      .innerJoin('contact_imports as m', 'm.id', 'i.import_id')
      .select(['i.import_id', 'i.row_number', 'i.reason'])
      .where('m.account_id', '=', accountId)
      .orderBy('i.import_id')
      .orderBy('i.row_number')
      .execute(),
  ]);
  return { groups, contacts, imports, issues };
}
