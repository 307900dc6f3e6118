import type { LoginResponse } from '@wren/contracts';
import type { Clock } from '../../platform/clock';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import type { Mailer } from '../../platform/mailer';
import type { LedgerService } from '../ledger/ledger.service';
import type { UsersService } from '../users/users.service';
import type { Sessions } from './sessions';
import type { TokenSigner } from './tokens';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** What the auth services (sign-in, registration, password recovery) are built from. */
export interface AuthDeps {
  db: Db;
  config: Config;
  logger: Logger;
  mailer: Mailer;
  tokens: TokenSigner;
  users: UsersService;
  ledger: LedgerService;
  clock: Clock;
  /** Ends sessions everywhere (sessions.ts): every sign-out below goes through it. */
  sessions: Sessions;
}

/** Opens a session for a user in `trx` and signs them in (auth.service's startSession). */
export type StartSession = (
  trx: Db,
  user: { id: string; account_id: string; role: 'user' | 'admin' },
  client: ClientInfo,
  /** The account the session acts on; the user's home account by default. */
  accountId?: string,
) => Promise<LoginResponse>;

/** Runs work after a uniform reply; failures are logged (auth.service's runInBackground). */
export type RunInBackground = (work: () => Promise<void>) => void;
