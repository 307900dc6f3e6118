import type { AccountRole, ApiScope } from '@wren/contracts';

/**
 * Who is calling: the shapes the auth guard puts on a request. The modules that prove them (auth's
 * tokens, api-keys' key check) produce these; the guard and every route only read them.
 */

/** A signed-in session's access token, verified. */
export interface AccessClaims {
  userId: string;
  accountId: string;
  sessionId: string;
  role: 'user' | 'admin';
  /**
   * The member's role in `accountId` (account_members), checked against each route's permission;
   * null for a request made with an API key (a key acts with its scopes, not a role).
   */
  accountRole: AccountRole | null;
}

/** The caller behind a request authenticated by API key. */
export interface ApiKeyPrincipal {
  keyId: string;
  accountId: string;
  userId: string;
  prefix: string;
  scopes: readonly ApiScope[];
  webhookUrl: string | null;
}
