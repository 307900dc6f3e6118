import {
  accountEventListSchema,
  API,
  fileResponse,
  noContentSchema,
  PICTURE_MAX_BYTES,
  updateProfileSchema,
  userSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';
import { readUpload } from '../../platform/http/upload';
import { listRecent } from '../audit/audit.service';

export function usersRoutes(ctx: AppContext) {
  const { users } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(API.me, { config: can('self'), schema: { response: { 200: userSchema } } }, async (req) =>
      users.getProfile(authOf(req).userId),
    );

    r.patch(
      API.me,
      { config: can('self'), schema: { body: updateProfileSchema, response: { 200: userSchema } } },
      async (req) => {
        const a = authOf(req);
        return users.updateProfile({ userId: a.userId, accountId: a.accountId, patch: req.body });
      },
    );

    r.get(
      API.mePicture,
      { config: can('self'), schema: { response: { 200: fileResponse('image/*', 'The profile picture') } } },
      async (req, reply) => {
        const pic = await users.getPicture(authOf(req).userId);
        return reply
          .header('content-type', pic.contentType)
          .header('cache-control', 'private, no-cache')
          .header('content-security-policy', "default-src 'none'")
          .header('last-modified', pic.updatedAt.toUTCString())
          .send(pic.bytes);
      },
    );

    r.delete(
      API.mePicture,
      { config: can('self'), schema: { response: { 204: noContentSchema } } },
      async (req, reply) => {
        await users.deletePicture(authOf(req).userId);
        return reply.status(204).send();
      },
    );

    r.post(
      API.mePictureUpload,
      { config: can('self'), schema: { response: { 200: userSchema } } },
      async (req) => {
        const { bytes } = await readUpload(req, {
          maxBytes: PICTURE_MAX_BYTES,
          notMultipart: 'Upload the picture as multipart/form-data',
          missing: 'Choose a picture to upload',
        });
        const a = authOf(req);
        return users.setPicture({ userId: a.userId, accountId: a.accountId, bytes });
      },
    );

    r.get(
      API.meEvents,
      {
        config: can('reports:read'),
        schema: {
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
          response: { 200: accountEventListSchema },
        },
      },
      async (req) => {
        const rows = await listRecent(ctx.db, authOf(req).accountId, req.query.limit);
        return {
          items: rows.map((r) => ({
            id: String(r.id),
            kind: r.kind,
            message: r.message,
            createdAt: r.created_at.toISOString(),
          })),
        };
      },
    );
  };
}
