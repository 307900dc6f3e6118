import { randomUUID } from 'node:crypto';
import { ADMIN_API } from '@wren/contracts';
import { expect } from 'vitest';
import type { ApiClient } from '../../../test/client';
import type { TestServer } from '../../../test/harness';

/** Runs `fn` with the server's mailer capturing what it sends. */
export async function capturingMail<T>(
  s: TestServer,
  fn: (mails: { to: string; text: string }[]) => Promise<T>,
) {
  const mails: { to: string; text: string }[] = [];
  const mailer = s.ctx.mailer as { send: (m: { to: string; text: string }) => Promise<void> };
  const send = mailer.send;
  mailer.send = async (m) => {
    mails.push(m);
  };
  try {
    return await fn(mails);
  } finally {
    mailer.send = send;
  }
}

/**
 * The parent creates a child (POST /api/sub-accounts); its first owner, a new user, accepts the
 * emailed invite and is signed in to the child. Returns the child's id and its owner's client.
 */
export async function createChild(
  s: TestServer,
  parent: ApiClient,
  name = `Client ${randomUUID().slice(0, 6)}`,
) {
  const tag = randomUUID().slice(0, 8);
  const email = `child-owner-${tag}@example.com`;
  const password = `Correct horse ${tag} battery`;
  return capturingMail(s, async (mails) => {
    const res = await parent.post('/api/sub-accounts', { name, ownerEmail: email });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const mail = mails.find((m) => m.to === email);
    expect(mail, 'the invite email').toBeDefined();
    const token = /\/invite\/([^\s]+)/.exec(mail!.text)![1];
    const owner = s.client();
    const accepted = await owner.post(`/api/invites/${token}/accept`, {
      username: `childowner${tag}`,
      name: `Child owner ${tag}`,
      phone: '+14155550100',
      password,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    owner.useSession(accepted.body);
    return { id: res.body.id as string, name, owner, email, password, mailText: mail!.text };
  });
}

/** A signed-in operator (for credits through the admin API). */
export async function operator(s: TestServer) {
  const admin = s.client();
  const reg = await admin.register();
  await s.ctx.services.users.promote(reg.user.username);
  const login = await admin.post('/api/auth/login', { username: reg.user.username, password: reg.password });
  admin.useSession(login.body);
  return admin;
}

/** Credits (or debits) an account through the operator's adjustment. */
export async function credit(admin: ApiClient, accountId: string, amountMinor: number) {
  const adj = await admin.post(ADMIN_API.adjustments.replace(':id', accountId), {
    amountMinor,
    reason: 'Test credit',
  });
  expect(adj.status, JSON.stringify(adj.body)).toBeLessThan(300);
}

/** Every account's cached balance equals the sum of its ledger entries. */
export async function ledgerMatches(s: TestServer, accountIds: string[]) {
  for (const id of accountIds) {
    const v = await s.ctx.services.ledger.verify(s.ctx.db, id);
    expect(Number(v.cached), `account ${id}`).toBe(v.sum);
  }
}
