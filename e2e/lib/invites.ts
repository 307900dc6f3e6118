import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { apiCall, newUser, type TestUser } from './app';
import type { RunningServer } from './server';

/** The path of the invite link in the email the server wrote to its outbox for `email`. */
export async function inviteLink(server: RunningServer, email: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox');
  const find = () => {
    try {
      return readdirSync(outbox).find((f) => f.includes(email.replace(/[^a-zA-Z0-9@._-]/g, '_')));
    } catch {
      return undefined;
    }
  };
  for (let i = 0; i < 100 && !find(); i++) await new Promise((r) => setTimeout(r, 50));
  const file = find();
  assert.ok(file, 'the invite email was written to the outbox');
  const text = readFileSync(path.join(outbox, file), 'utf8')
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  const link = /https?:\/\/\S+\/invite\/[\w%-]+/.exec(text)?.[0];
  assert.ok(link, 'the email holds an invite link');
  return new URL(link).pathname;
}

/**
 * A new member of `owner`'s account with `role`, through the API as a person would: the owner
 * invites their email, the emailed link is accepted with a new username and password.
 */
export async function memberViaApi(server: RunningServer, owner: TestUser, role: string): Promise<TestUser> {
  const login = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: owner.username,
    password: owner.password,
  });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  const member = newUser({ name: `${role[0]!.toUpperCase()}${role.slice(1)} Member` });
  const invite = await apiCall(
    server.baseUrl,
    'POST',
    '/api/invites',
    { email: member.email, role },
    String(login.body?.accessToken),
  );
  assert.equal(invite.status, 201, JSON.stringify(invite.body));
  const token = (await inviteLink(server, member.email)).split('/').pop()!;
  const accepted = await apiCall(server.baseUrl, 'POST', `/api/invites/${token}/accept`, {
    username: member.username,
    name: member.name,
    phone: member.phone,
    password: member.password,
  });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  return member;
}
