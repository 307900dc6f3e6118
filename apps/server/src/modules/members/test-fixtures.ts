import { randomUUID } from 'node:crypto';
import type { AccountRole } from '@wren/contracts';
import { expect } from 'vitest';
import type { ApiClient } from '../../../test/client';
import type { TestServer } from '../../../test/harness';

/** Invites `email` as `role` into the owner's account and accepts as a new user; returns the client. */
export async function joinAs(
  s: TestServer,
  owner: ApiClient,
  role: AccountRole,
  tag = randomUUID().slice(0, 8),
) {
  const mails: { to: string; text: string }[] = [];
  const mailer = s.ctx.mailer as { send: (m: { to: string; text: string }) => Promise<void> };
  const send = mailer.send;
  mailer.send = async (m) => {
    mails.push(m);
  };
  try {
    const email = `${role}-${tag}@example.com`;
    const inv = await owner.post('/api/invites', { email, role });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    const token = /\/invite\/([^\s]+)/.exec(mails.find((m) => m.to === email)!.text)![1];
    const c = s.client();
    const res = await c.post(`/api/invites/${token}/accept`, {
      username: `${role}${tag}`,
      name: `The ${role}`,
      phone: '+14155550100',
      password: `Correct horse ${tag} battery`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    c.useSession(res.body);
    return { client: c, token: decodeURIComponent(token), email, userId: res.body.user.id as string };
  } finally {
    mailer.send = send;
  }
}
