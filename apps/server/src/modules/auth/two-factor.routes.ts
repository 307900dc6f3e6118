import {
  accountTwoFactorPolicySchema,
  loginResponseSchema,
  noContentSchema,
  recoveryCodesSchema,
  REMEMBER_DEVICE_DAYS,
  signInChallengeSchema,
  signInEnrollConfirmSchema,
  twoFactorCodeSchema,
  twoFactorDisableSchema,
  twoFactorEnrollmentSchema,
  twoFactorStatusSchema,
  twoFactorVerifySchema,
  TWO_FACTOR_API,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app/context';
import { authOf, clientOf } from '../../platform/http/auth-guard';
import { PUBLIC, SELF, can } from '../../platform/http/route-auth';

/**
 * The remembered-device cookie: httpOnly, sent only to the sign-in routes; only its hash is
 * stored (two_factor_devices). POST /api/auth/login reads it (auth.routes.ts).
 */
export const DEVICE_COOKIE = 'wren_2fa_device';

/** Two-factor sign-in's routes (issue 39 item 3): the sign-in step, enrollment, settings. */
export function twoFactorRoutes(ctx: AppContext) {
  const { auth } = ctx.services;
  // The sign-in step comes before there is a token: public, rate-limited like the password step.
  const limited = {
    ...PUBLIC,
    rateLimit: { max: ctx.config.authRateLimitPerMinute, timeWindow: '1 minute' },
  };

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      TWO_FACTOR_API.verify,
      { schema: { body: twoFactorVerifySchema, response: { 200: loginResponseSchema } }, config: limited },
      async (req, reply) => {
        const { login, deviceToken } = await auth.verifySignIn(req.body, clientOf(req));
        if (deviceToken) {
          reply.setCookie(DEVICE_COOKIE, deviceToken, {
            path: '/api/auth',
            httpOnly: true,
            sameSite: 'strict',
            secure: req.protocol === 'https',
            maxAge: REMEMBER_DEVICE_DAYS * 86_400,
          });
        }
        return login;
      },
    );

    r.post(
      TWO_FACTOR_API.signInEnrollStart,
      {
        schema: { body: signInChallengeSchema, response: { 200: twoFactorEnrollmentSchema } },
        config: limited,
      },
      async (req, reply) =>
        reply.header('cache-control', 'no-store').send(await auth.signInEnrollStart(req.body.challenge)),
    );

    r.post(
      TWO_FACTOR_API.signInEnrollConfirm,
      {
        schema: {
          body: signInEnrollConfirmSchema,
          response: { 200: loginResponseSchema.extend(recoveryCodesSchema.shape) },
        },
        config: limited,
      },
      async (req) => auth.signInEnrollConfirm(req.body, clientOf(req)),
    );

    r.get(
      TWO_FACTOR_API.status,
      { config: SELF, schema: { response: { 200: twoFactorStatusSchema } } },
      async (req) => auth.twoFactorStatus(authOf(req)),
    );

    r.post(
      TWO_FACTOR_API.enrollStart,
      { config: SELF, schema: { response: { 200: twoFactorEnrollmentSchema } } },
      async (req, reply) =>
        reply.header('cache-control', 'no-store').send(await auth.enrollStart(authOf(req))),
    );

    r.post(
      TWO_FACTOR_API.enrollConfirm,
      { config: SELF, schema: { body: twoFactorCodeSchema, response: { 200: recoveryCodesSchema } } },
      async (req) => auth.enrollConfirm(authOf(req), req.body.code, clientOf(req)),
    );

    r.post(
      TWO_FACTOR_API.disable,
      { config: SELF, schema: { body: twoFactorDisableSchema, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await auth.disable(authOf(req), req.body, clientOf(req));
        return reply.status(204).send();
      },
    );

    r.post(
      TWO_FACTOR_API.recoveryCodes,
      { config: SELF, schema: { body: twoFactorCodeSchema, response: { 200: recoveryCodesSchema } } },
      async (req) => auth.regenerateRecoveryCodes(authOf(req), req.body.code, clientOf(req)),
    );

    r.put(
      TWO_FACTOR_API.accountPolicy,
      {
        config: can('members:manage'),
        schema: { body: accountTwoFactorPolicySchema, response: { 200: accountTwoFactorPolicySchema } },
      },
      async (req) => auth.setAccountRequirement(authOf(req), req.body.requireTwoFactor, clientOf(req)),
    );
  };
}
