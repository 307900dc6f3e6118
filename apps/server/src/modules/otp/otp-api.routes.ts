import {
  type ApiScope,
  type Permission,
  CAPTCHA_HEADER,
  OTP_API,
  otpCheckResultSchema,
  otpCheckSchema,
  otpSendResultSchema,
  otpSendSchema,
} from '@wren/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotencyHeaders, replyIdempotent, storeAnswers } from '../v1/idempotency';
import { replyV1Error } from '../v1/v1-errors';
import { checkDocumentedErrors } from '../v1/v1-documented-errors';
import type { AppContext } from '../../app/context';
import { API_KEY_PREFIX, authOf, bearerOf } from '../../platform/http/auth-guard';
import type { RouteAccess } from '../../platform/http/route-auth';
import { createCaptcha } from '../auth/captcha';
import { otpServiceOf } from './otp.module';

/**
 * WHO MAY CALL THE PUBLIC OTP API: a signed-in session (the normal route auth; the console's test
 * page) or, since the API-keys issue (#13), an `Authorization: Bearer wren_live_…` key with the
 * `otp` scope.
 */
export const OTP_API_AUTH: { auth?: RouteAccess; scope?: ApiScope; permission?: Permission } = {
  scope: 'otp',
  permission: 'developer:manage', // a session's member role (a key acts with its scope)
};

const serviceParams = z.object({ serviceId: z.uuid('Unknown OTP service id') });

/** The public verify API: POST /v1/otp/:serviceId/send and /check. */
export function otpApiRoutes(ctx: AppContext) {
  const otp = otpServiceOf(ctx);
  // A send from a browser session (the console's test page) carries a solved ALTCHA challenge,
  // so a stolen session cannot be scripted into an SMS pump. CAPTCHA=false turns it off.
  const captcha = createCaptcha({
    enabled: ctx.config.captcha,
    secret: ctx.config.jwtSecret,
    cost: ctx.config.captchaCost,
    clock: ctx.clock,
  });
  const sessionCaptcha = async (req: FastifyRequest) => {
    if (req.apiKey) return; // an API key (scope otp) is a server, not a browser: no challenge
    const header = req.headers[CAPTCHA_HEADER];
    await captcha.check(typeof header === 'string' ? header : undefined);
  };

  return async (app: FastifyInstance) => {
    // Errors in /v1's one shape ({error: {type, code, message, param?}}), as on every /v1 route,
    // except for the console's signed-in session (a session token, not a key), which shows the app's
    // field errors: its errors go on to the app's handler.
    app.setErrorHandler((err, req, reply) => {
      const bearer = bearerOf(req);
      if (bearer !== undefined && !bearer.startsWith(API_KEY_PREFIX)) throw err;
      return replyV1Error(err, req, reply);
    });
    checkDocumentedErrors(app);
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      OTP_API.send,
      {
        config: OTP_API_AUTH,
        preHandler: sessionCaptcha,
        schema: {
          params: serviceParams,
          headers: idempotencyHeaders,
          body: otpSendSchema,
          response: { 201: otpSendResultSchema },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const send = {
          accountId: auth.accountId,
          userId: auth.userId,
          serviceId: req.params.serviceId,
          // The key's report counts the codes it sent (with their SMS and its price).
          apiKeyId: req.apiKey?.keyId ?? null,
        };
        if (!req.apiKey) return reply.status(201).send(await otp.send({ ...send, to: req.body.to }));
        // A key's send takes an Idempotency-Key like POST /v1/messages: its answer commits with the
        // code and its SMS, so a retry after a lost answer replays it instead of sending a new code.
        return replyIdempotent(
          ctx.db,
          req,
          reply,
          { accountId: auth.accountId, path: `/v1/otp/${send.serviceId}/send`, body: req.body },
          async (claim) => ({
            status: 201,
            body: await otp.send({
              ...send,
              to: req.body.to,
              ...(claim && {
                withinTransaction: (trx, result) => storeAnswers(trx, [{ claim, status: 201, body: result }]),
              }),
            }),
            stored: claim !== null,
          }),
        );
      },
    );

    r.post(
      OTP_API.check,
      {
        config: OTP_API_AUTH,
        schema: {
          params: serviceParams,
          headers: idempotencyHeaders,
          body: otpCheckSchema,
          response: { 200: otpCheckResultSchema },
        },
      },
      async (req, reply) => {
        const check = { accountId: authOf(req).accountId, serviceId: req.params.serviceId, ...req.body };
        if (!req.apiKey) return otp.check(check);
        // With an Idempotency-Key, a retried check (its answer lost) replays the first answer
        // rather than failing as a used code or costing an attempt.
        return replyIdempotent(
          ctx.db,
          req,
          reply,
          { accountId: check.accountId, path: `/v1/otp/${check.serviceId}/check`, body: req.body },
          async () => ({ status: 200, body: await otp.check(check) }),
        );
      },
    );
  };
}
