import { SEND_WINDOWS_API, sendWindowSettingsDtoSchema, sendWindowSettingsSchema } from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';
import { loadSendWindowSettings, saveSendWindowSettings } from './send-window-settings';

/**
 * The account's default send window (issue 41 item 1). Read by whoever sends (the composer shows
 * it); set by an owner or admin (sender-ids:manage, the permission that picks the account's default
 * sender too). Always the signed-in account's own row.
 */
export function sendWindowsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      SEND_WINDOWS_API.settings,
      { config: can('messages:send'), schema: { response: { 200: sendWindowSettingsDtoSchema } } },
      async (req) => loadSendWindowSettings(ctx.db, authOf(req).accountId),
    );
    r.put(
      SEND_WINDOWS_API.settings,
      {
        config: can('sender-ids:manage'),
        schema: { body: sendWindowSettingsSchema, response: { 200: sendWindowSettingsDtoSchema } },
      },
      async (req) => saveSendWindowSettings(ctx.db, authOf(req).accountId, req.body),
    );
  };
}
