import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { createChild, credit, operator } from '../sub-accounts/test-fixtures';

/**
 * A reseller's statements of its sub-accounts (issue 39 items 4 and 5): the parent reads and
 * downloads its child's month (the child's own statement), and nobody else can.
 */
let server: TestServer;
let parent: ApiClient;
let child: Awaited<ReturnType<typeof createChild>>;
const month = new Date().toISOString().slice(0, 7);

beforeAll(async () => {
  server = await startServer();
  const admin = await operator(server);
  parent = server.client();
  const reg = await parent.register();
  await credit(admin, reg.user.accountId, 5_000);
  child = await createChild(server, parent, 'Acme Bakery');
  const t = await parent.post(`/api/sub-accounts/${child.id}/transfers`, {
    direction: 'to_child',
    amountMinor: 1_250,
  });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
});
afterAll(() => server?.close());

describe("a reseller's statements of its sub-accounts", () => {
  it("the parent gets the child's months, its month, and the month as CSV and PDF", async () => {
    const months = await parent.get(`/api/sub-accounts/${child.id}/statements`);
    expect(months.status, JSON.stringify(months.body)).toBe(200);
    expect(JSON.stringify(months.body)).toContain(month);

    const one = await parent.get(`/api/sub-accounts/${child.id}/statements/${month}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ accountId: child.id, accountName: 'Acme Bakery', month });
    // The child's statement, as its own owner sees it.
    const own = await child.owner.get(`/api/statements/${month}`);
    expect(own.status).toBe(200);
    expect({ ...one.body, generatedAt: 0 }).toEqual({ ...own.body, generatedAt: 0 });

    const csv = await parent.get(`/api/sub-accounts/${child.id}/statements/${month}/csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(String(csv.body)).toContain('Acme Bakery');
    expect(String(csv.body)).toContain('12.50');

    const pdf = await parent.get(`/api/sub-accounts/${child.id}/statements/${month}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(
      /attachment; filename="?statement-acme-bakery-\d{4}-\d{2}\.pdf/,
    );
  });

  it('another account, and the child itself, get 404; a bad month is a 400', async () => {
    const other = server.client();
    await other.register();
    for (const path of ['', `/${month}`, `/${month}/csv`, `/${month}/pdf`]) {
      expect((await other.get(`/api/sub-accounts/${child.id}/statements${path}`)).status, path).toBe(404);
      expect((await child.owner.get(`/api/sub-accounts/${child.id}/statements${path}`)).status, path).toBe(
        404,
      );
    }
    const bad = await parent.get(`/api/sub-accounts/${child.id}/statements/2026-13`);
    expect(bad.status).toBe(400);
  });
});
