import {
  createOtpServiceSchema,
  noContentSchema,
  OTP_API,
  otpServiceDtoSchema,
  otpServiceListSchema,
  otpStatsQuerySchema,
  otpStatsResponseSchema,
  otpVerificationPageSchema,
  otpVerificationQuerySchema,
  updateOtpServiceSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';
import { otpServiceOf } from './otp.module';

const idParams = z.object({ id: z.uuid('Unknown OTP service id') });

/** The console's OTP service management: CRUD, daily figures and the verifications table. */
export function otpRoutes(ctx: AppContext) {
  const otp = otpServiceOf(ctx);

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      OTP_API.list,
      { config: can('developer:manage'), schema: { response: { 200: otpServiceListSchema } } },
      async (req) => otp.list(authOf(req).accountId),
    );

    r.post(
      OTP_API.list,
      {
        config: can('developer:manage'),
        schema: { body: createOtpServiceSchema, response: { 201: otpServiceDtoSchema } },
      },
      async (req, reply) => reply.status(201).send(await otp.create(authOf(req).accountId, req.body)),
    );

    r.get(
      OTP_API.item,
      {
        config: can('developer:manage'),
        schema: { params: idParams, response: { 200: otpServiceDtoSchema } },
      },
      async (req) => otp.get(authOf(req).accountId, req.params.id),
    );

    r.patch(
      OTP_API.item,
      {
        config: can('developer:manage'),
        schema: { params: idParams, body: updateOtpServiceSchema, response: { 200: otpServiceDtoSchema } },
      },
      async (req) => otp.update(authOf(req).accountId, req.params.id, req.body),
    );

    r.delete(
      OTP_API.item,
      { config: can('developer:manage'), schema: { params: idParams, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await otp.remove(authOf(req).accountId, req.params.id);
        return reply.status(204).send();
      },
    );

    r.get(
      OTP_API.stats,
      {
        config: can('reports:read'),
        schema: {
          params: idParams,
          querystring: otpStatsQuerySchema,
          response: { 200: otpStatsResponseSchema },
        },
      },
      async (req) => otp.stats(authOf(req).accountId, req.params.id, req.query),
    );

    r.get(
      OTP_API.verifications,
      {
        config: can('reports:read'),
        schema: {
          params: idParams,
          querystring: otpVerificationQuerySchema,
          response: { 200: otpVerificationPageSchema },
        },
      },
      async (req) => otp.verifications(authOf(req).accountId, req.params.id, req.query),
    );
  };
}
