import { createAuthService } from '../modules/auth/auth.service';
import { createSessions } from '../modules/auth/sessions';
import { createMembersService } from '../modules/members/members.service';
import { createTokenSigner } from '../modules/auth/tokens';
import { createDashboardService } from '../modules/dashboard/dashboard.service';
import { createDlrService } from '../modules/dlr/dlr.service';
import { createInboundService } from '../modules/inbound/inbound.service';
import { createLedgerService } from '../modules/ledger/ledger.service';
import { createMessagesService, type ResolveSender } from '../modules/messages/messages.service';
import { createPricingService } from '../modules/pricing/pricing.service';
import { createUsersService } from '../modules/users/users.service';
import { createContactsService } from '../modules/contacts/contacts.service';
import { createGroupsService } from '../modules/contacts/groups.service';
import { createImportsService } from '../modules/contacts/imports.service';
import { createSenderIdsService } from '../modules/sender-ids/sender-ids.service';
import { createNumbersService } from '../modules/numbers/numbers.service';
import { createConversationsService } from '../modules/conversations/conversations.service';
import { createSubAccountPricing } from '../modules/sub-accounts/sub-account-pricing';
import { createSubAccountsService } from '../modules/sub-accounts/sub-accounts.service';
import { ledgerPeriodReads } from '../modules/ledger/ledger-period';
import { usageByCountry } from '../modules/messages/usage-by-country';
import { createStatementsService } from '../modules/statements/statements.service';
import { readAccountProfile } from '../modules/users/account-profile';
import { createTemplatesService } from '../modules/templates/templates.service';
import { systemClock, type Clock } from '../platform/clock';
import type { Config } from '../platform/config';
import { createConnectionRegistry } from '../platform/connection-policy';
import { openPostgres, type Database, type Db } from '../platform/db';
import { EventBus } from '../platform/events';
import { createAuthGuard } from '../platform/http/auth-guard';
import { ApiKeyError } from '../modules/api-keys/api-key-error';
import { createApiKeysService, rateHeaders } from '../modules/api-keys/api-keys.service';
import { createWebhooksService } from '../modules/webhooks/webhooks.service';
import { createSmppAccountsService } from '../modules/smpp-accounts/smpp-accounts.service';
import { createJobs } from '../platform/jobs';
import type { Logger } from '../platform/logger';
import { createMailer } from '../platform/mailer';
import { createStripeProvider } from '../modules/billing/stripe-provider';
import { createTopUpsService } from '../modules/billing/top-ups.service';
import { createBillingDataService } from '../modules/billing/billing-data.service';
import { createReadRouter, primaryReads } from '../platform/read-replica';

/** Wires services to their collaborators once; routes and workers receive this object. */
export function createContext(
  config: Config,
  database: Database,
  logger: Logger,
  /** "Now" for rules decided in TypeScript (token expiry, login locks, reset links); tests pass a test clock. */
  clock: Clock = systemClock,
) {
  const db = database.db;
  const events = new EventBus();
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    logger,
  });
  const tokens = createTokenSigner(
    config.jwtSecret,
    config.accessTokenTtlSeconds,
    config.refreshTokenTtlDays * 86_400,
    clock,
  );
  const ledger = createLedgerService(events);
  // Ends sessions on every node (role change, password change, lock, logout): see sessions.ts.
  const sessions = createSessions({ db, clock, logger });
  const users = createUsersService({ db, defaultCountry: config.defaultCountry, sessions });
  const auth = createAuthService({ db, config, logger, mailer, tokens, users, ledger, clock, sessions });
  const members = createMembersService({
    db,
    clock,
    logger,
    mailer,
    publicUrl: config.publicUrl,
    sessions,
    startSession: auth.startSession,
    enrollmentBefore: (trx, userId, accountId) => auth.enrollmentBefore(trx, userId, accountId),
    normalisePhone: users.normalisePhone,
  });
  const apiKeys = createApiKeysService({
    db,
    clock,
    logger,
    defaultRateLimitPerMinute: config.apiKeyRateLimitPerMinute,
    allowPrivateWebhooks: config.webhookAllowPrivate,
  });
  const guard = createAuthGuard(
    (token) => auth.authenticate(token),
    async (secret, req, reply, scope) => {
      if (!secret)
        throw new ApiKeyError('key_missing', 'Send your API key: Authorization: Bearer wren_live_…');
      const { principal, rate } = await apiKeys.authenticate(secret, req.ip, scope);
      void reply.headers(rateHeaders(rate));
      return principal;
    },
  );
  const pricing = createPricingService(db);
  const numbers = createNumbersService({ db, ledger, events, logger, currency: config.currency });
  const senderIds = createSenderIdsService({
    db,
    events,
    approval: config.senderIdApproval,
    systemDefault: config.defaultSender,
  });
  const resolveSender: ResolveSender = (input) => senderIds.resolveSenderForSend(input);
  const inbound = createInboundService({ db, events, logger, defaultCountry: config.defaultCountry, ledger });
  const messages = createMessagesService({
    db,
    config,
    events,
    ledger,
    pricing,
    resolveSender,
    logger,
    filterSuppressed: inbound.filterSuppressed,
  });
  const conversations = createConversationsService({ db, messages });
  // The SMPP connections this node applies (the environment's, then the console's: worker.ts).
  const connections = createConnectionRegistry(config);
  const dlr = createDlrService({ db, config, events, ledger, logger, connections });
  const dashboard = createDashboardService({ db, ledger, users });
  // Monthly statements, read from the ledger, messages and users modules (statements/ports.ts).
  const statementSources = { account: readAccountProfile, ledger: ledgerPeriodReads, usageByCountry };
  const statements = createStatementsService({ db, clock, sources: statementSources });
  /** The statements read through another Db: a read replica's (platform/read-replica.ts). */
  const statementsOn = (other: Db) =>
    createStatementsService({ db: other, clock, sources: statementSources });
  // Sub-accounts for resellers (issue 39 item 4): children, transfers, their prices and usage.
  const subAccounts = createSubAccountsService({ db, clock, logger, ledger, members });
  const subAccountPricing = createSubAccountPricing({ db, pricing, subAccounts });
  const groups = createGroupsService({ db, events });
  const contacts = createContactsService({ db, events, defaultCountry: config.defaultCountry });
  // Background jobs (pg-boss); started by buildApp / startWorker, stopped when they close.
  const jobs = createJobs({ database, logger, work: config.runJobs });
  // Lag-tolerant reads from DATABASE_READ_URL's replica while it is fresh (platform/read-replica.ts).
  const readUrl = config.databaseReadUrl;
  const reads = readUrl
    ? createReadRouter({
        primary: database,
        openReplica: () => openPostgres(readUrl, 10),
        maxLagMs: config.databaseReadMaxLagMs,
        logger,
      })
    : primaryReads(database);
  const contactImports = createImportsService({
    db,
    events,
    logger,
    jobs,
    defaultCountry: config.defaultCountry,
    maxBytes: config.importMaxBytes,
  });
  const templates = createTemplatesService({ db, events });
  // SMPP accounts (issue 37): the logins of the SMPP server that API nodes run (modules/smpp-server).
  const smppAccounts = createSmppAccountsService({ db, logger });
  const webhooks = createWebhooksService({
    db,
    jobs,
    logger,
    timeoutMs: config.webhookTimeoutMs,
    retryBaseMs: config.webhookRetryBaseMs,
    allowPrivate: config.webhookAllowPrivate,
  });
  // Top-ups (issue 47): Stripe Checkout when configured, else requests an operator approves.
  const topUps = createTopUpsService({
    db,
    ledger,
    logger,
    publicUrl: config.publicUrl,
    provider: config.stripe ? createStripeProvider(config.stripe) : null,
  });
  // Prices, ledger and low-balance alerts of the account (issue 47); alerts fire on balance.changed.
  const billing = createBillingDataService({
    db,
    pricing,
    mailer,
    events,
    logger,
    publicUrl: config.publicUrl,
  });
  return {
    config,
    connections,
    clock,
    database,
    db,
    reads,
    logger,
    events,
    jobs,
    mailer,
    tokens,
    guard,
    services: {
      auth,
      sessions,
      members,
      users,
      ledger,
      pricing,
      messages,
      dlr,
      senderIds,
      numbers,
      conversations,
      groups,
      contacts,
      contactImports,
      templates,
      apiKeys,
      smppAccounts,
      webhooks,
      dashboard,
      inbound,
      subAccounts,
      subAccountPricing,
      statements,
      statementsOn,
      topUps,
      billing,
    },
  };
}

export type AppContext = ReturnType<typeof createContext>;
