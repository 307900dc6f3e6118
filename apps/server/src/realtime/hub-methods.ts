import {
  ErrorCode,
  HUB_NOT_AVAILABLE,
  HUB_METHOD_PERMISSIONS,
  HUB_UNAUTHORIZED,
  type HubAck,
  type HubCommand,
  type HubFailure,
  type HubRequest,
  type PermissionDeclaration,
  roleCan,
} from '@wren/contracts';
import type { DashboardService } from '../modules/dashboard/dashboard.service';
import { AppError, FieldError } from '../platform/errors';
import { databaseInputError } from '../platform/http/database-errors';
import { permissionDenied } from '../platform/http/route-auth';
import type { Logger } from '../platform/logger';
import type { HubDirectory } from './directory';
import type { HubSocket } from './hub-types';

/** Requests one socket may have in flight; more are refused with RATE_LIMITED. */
export const MAX_IN_FLIGHT = 16;

/** What each hub method needs of the member's role: contracts' HUB_METHOD_PERMISSIONS (issue 39). */
export const HUB_PERMISSIONS: Record<HubRequest | HubCommand, PermissionDeclaration> = HUB_METHOD_PERMISSIONS;

interface Caller {
  accountId: string;
  userId: string;
}

type Handler = (caller: Caller, args: unknown[]) => Promise<unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

class NotAvailable extends Error {}

export function hubHandlers(deps: { dashboard: DashboardService; directory: HubDirectory }) {
  const { dashboard, directory } = deps;

  const requests: Record<HubRequest, Handler> = {
    GetAccountBalance: (c) => dashboard.balance(c),
    GetDeliveryStatus: (c) => dashboard.deliveryStatus(c),
    GetPerformanceData: (c) => dashboard.performance(c),
    // A directory service this server lacks (null) lists as [].
    GetSenderIdList: async (c) => (await directory.senderIds?.list(c))?.items ?? [],
    GetSmsTemplates: async (c) => (await directory.templates?.list(c))?.items ?? [],
    GetGroupList: async (c) => (await directory.groups?.list(c))?.items ?? [],
    GetCampaignDeliveryStatus: (c, [id]) =>
      dashboard.campaignDeliveryStatus({ accountId: c.accountId, campaignId: str(id) }),
    GetCampaignDetail: (c, [id]) => dashboard.campaignDetail({ accountId: c.accountId, campaignId: str(id) }),
  };

  const commands: Record<HubCommand, Handler> = {
    CreateSenderId: async (c, [payload]) => {
      if (!directory.senderIds) throw new NotAvailable('Sender IDs are not available yet');
      const p = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
      // Only the payload's own fields: the caller's account and user come from the token.
      return directory.senderIds.createSenderId({
        value: p.value as string,
        purpose: p.purpose as string,
        sampleMessage: p.sampleMessage as string,
        accountId: c.accountId,
        userId: c.userId,
      });
    },
    SaveSmsTemplate: async (c, [name, text]) => {
      if (!directory.templates) throw new NotAvailable('Saved messages are not available yet');
      return directory.templates.saveTemplate({
        accountId: c.accountId,
        name: name as string,
        text: text as string,
      });
    },
  };

  return { requests, commands };
}

/** An error in the shape the client reads; unexpected ones are logged and not described. */
export function toHubFailure(err: unknown, logger: Logger, method: string): HubFailure {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  if (err instanceof FieldError)
    return { code: ErrorCode.VALIDATION, message: err.message, errors: err.errors };
  if (err instanceof NotAvailable) return { code: HUB_NOT_AVAILABLE, message: err.message };
  // PostgreSQL refusing the caller's value is their input, not our failure (as over HTTP).
  const db = databaseInputError(err);
  if (db) {
    logger.info({ method, sqlState: db.sqlState }, 'database refused the hub call input');
    return { code: db.error.code, message: db.error.message };
  }
  logger.error({ err, method }, 'hub call failed');
  return { code: ErrorCode.INTERNAL, message: 'Something went wrong on our side. Please try again.' };
}

/**
 * Registers the requests (reply through the acknowledgement, HubAck envelope) and the
 * fire-and-forget commands (failures pushed to this socket as HubError) on one socket.
 */
export function bindHubMethods(
  socket: HubSocket,
  handlers: ReturnType<typeof hubHandlers>,
  logger: Logger,
  /** Whether the socket's session is still active; a socket whose session ended is closed. */
  sessionActive: () => Promise<boolean>,
) {
  const caller: Caller = { accountId: socket.data.auth.accountId, userId: socket.data.auth.userId };
  let inFlight = 0;

  const bind = (method: HubRequest | HubCommand, handler: Handler, kind: 'request' | 'command') => {
    socket.on(method, (...args: unknown[]) => {
      const last = args.at(-1);
      const ack = typeof last === 'function' ? (args.pop() as (r: HubAck<unknown>) => void) : null;
      const fail = (error: HubFailure) => {
        if (ack) ack({ ok: false, error });
        else socket.emit('HubError', { method, ...error });
      };
      if (kind === 'request' && !ack) {
        fail({
          code: ErrorCode.VALIDATION,
          message: `${method} needs an acknowledgement callback for its reply`,
        });
        return;
      }
      if (inFlight >= MAX_IN_FLIGHT) {
        fail({ code: ErrorCode.RATE_LIMITED, message: 'Too many requests in flight; wait for the replies' });
        return;
      }
      inFlight += 1;
      void sessionActive()
        .then(async (active) => {
          if (!active) {
            // Signed out, or revoked by a password change, since the connect: nothing more for it.
            fail({ code: ErrorCode.UNAUTHORIZED, message: HUB_UNAUTHORIZED });
            socket.disconnect(true);
            return;
          }
          const permission = HUB_PERMISSIONS[method];
          if (!roleCan(socket.data.auth.accountRole, permission)) throw permissionDenied(permission);
          const result = await handler(caller, args);
          ack?.({ ok: true, data: result });
        })
        .catch((err: unknown) => fail(toHubFailure(err, logger, method)))
        .finally(() => {
          inFlight -= 1;
        });
    });
  };

  for (const [method, handler] of Object.entries(handlers.requests))
    bind(method as HubRequest, handler, 'request');
  for (const [method, handler] of Object.entries(handlers.commands))
    bind(method as HubCommand, handler, 'command');
}
