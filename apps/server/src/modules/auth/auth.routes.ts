import {
  API,
  CAPTCHA_HEADER,
  changePasswordSchema,
  ErrorCode,
  forgotPasswordSchema,
  loginResponseSchema,
  loginSchema,
  messageReplySchema,
  noContentSchema,
  refreshSchema,
  registerConfirmSchema,
  registerSchema,
  resetPasswordSchema,
  tokenPairSchema,
  twoFactorChallengeSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { AppError } from '../../platform/errors';
import { authOf, clientOf } from '../../platform/http/auth-guard';
import { PUBLIC, can } from '../../platform/http/route-auth';
import { createCaptcha } from './captcha';
import { DEVICE_COOKIE } from './two-factor.routes';

/** An ALTCHA challenge as the widget reads it. */
const captchaChallengeSchema = z.object({
  parameters: z.looseObject({ algorithm: z.string(), nonce: z.string(), salt: z.string() }),
  signature: z.string().optional(),
});

export function authRoutes(ctx: AppContext) {
  const { auth } = ctx.services;
  // Signing in and recovering an account happen before there is a token: these opt out of auth.
  const limited = {
    ...PUBLIC,
    rateLimit: { max: ctx.config.authRateLimitPerMinute, timeWindow: '1 minute' },
  };
  /** Challenges: a page load may fetch a few; still bounded per IP. */
  const limitedLoose = {
    ...PUBLIC,
    rateLimit: { max: ctx.config.authRateLimitPerMinute * 6, timeWindow: '1 minute' },
  };

  const captcha = createCaptcha({
    enabled: ctx.config.captcha,
    secret: ctx.config.jwtSecret,
    cost: ctx.config.captchaCost,
    clock: ctx.clock,
  });
  /** Register and forgot-password need a solved challenge (X-Altcha) unless CAPTCHA=false. */
  const captchaChecked = async (req: { headers: Record<string, string | string[] | undefined> }) => {
    const header = req.headers[CAPTCHA_HEADER];
    await captcha.check(typeof header === 'string' ? header : undefined);
  };

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      API.captcha,
      { schema: { response: { 200: captchaChallengeSchema } }, config: limitedLoose },
      async (_req, reply) => {
        const { parameters, signature } = await captcha.challenge();
        return reply.header('cache-control', 'no-store').send({ parameters: { ...parameters }, signature });
      },
    );

    r.post(
      API.register,
      {
        schema: { body: registerSchema, response: { 201: loginResponseSchema, 202: messageReplySchema } },
        config: limited,
        preHandler: captchaChecked,
      },
      async (req, reply) => {
        if (!ctx.config.registrationConfirm) {
          return reply.status(201).send(await auth.register(req.body, clientOf(req)));
        }
        // The same answer whether or not the username or email exist: the rest goes by email.
        await auth.registerStart(req.body, clientOf(req));
        return reply.status(202).send({
          message: `We have sent a link to ${req.body.email}. Open it within 24 hours to finish creating your account.`,
        });
      },
    );

    r.post(
      API.registerConfirm,
      { schema: { body: registerConfirmSchema, response: { 201: loginResponseSchema } }, config: limited },
      async (req, reply) => reply.status(201).send(await auth.registerConfirm(req.body, clientOf(req))),
    );

    r.post(
      API.login,
      {
        // Tokens, or the two-factor step (two-factor.routes.ts) a correct password leads to.
        schema: { body: loginSchema, response: { 200: loginResponseSchema.or(twoFactorChallengeSchema) } },
        config: limited,
      },
      async (req) => auth.login(req.body, clientOf(req), req.cookies[DEVICE_COOKIE]),
    );

    r.post(
      API.refresh,
      { schema: { body: refreshSchema, response: { 200: tokenPairSchema } }, config: PUBLIC },
      async (req) => auth.refresh(req.body),
    );

    r.post(
      API.logout,
      { config: can('self'), schema: { response: { 204: noContentSchema } } },
      async (req, reply) => {
        await auth.logout(authOf(req));
        return reply.status(204).send();
      },
    );

    r.post(
      API.forgotPassword,
      {
        schema: { body: forgotPasswordSchema, response: { 202: messageReplySchema } },
        config: limited,
        preHandler: captchaChecked,
      },
      async (req, reply) => {
        await auth.forgotPassword(req.body, clientOf(req));
        return reply.status(202).send({
          message: 'If an account uses that email, a reset link is on its way. It expires in 30 minutes.',
        });
      },
    );

    r.post(
      API.resetPassword,
      { schema: { body: resetPasswordSchema, response: { 204: noContentSchema } }, config: limited },
      async (req, reply) => {
        await auth.resetPassword(req.body, clientOf(req));
        return reply.status(204).send();
      },
    );

    r.post(
      API.mePassword,
      { config: can('self'), schema: { body: changePasswordSchema, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await auth.changePassword(authOf(req), req.body, clientOf(req));
        return reply.status(204).send();
      },
    );
  };
}

export const rateLimitError = (retryAfterMs: number) => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    ErrorCode.RATE_LIMITED,
    `Too many attempts. Please wait ${seconds} seconds and try again.`,
    {
      headers: { 'retry-after': String(seconds) },
    },
  );
};
