import { CONTACTS_API, commitImportSchema, ErrorCode } from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { AppError, FieldError } from '../../platform/errors';
import { authOf } from '../../platform/http/auth-guard';
import { attachment } from './csv';
import { groupParams } from './groups.routes';

const importParams = groupParams.extend({ importId: z.uuid('Unknown import id') });

export function importsRoutes(ctx: AppContext) {
  const { contactImports } = ctx.services;
  const preHandler = ctx.guard.requireUser;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // Running imports stop between batches (and are undone) before the database closes.
    app.addHook('onClose', async () => contactImports.stop());

    r.post(CONTACTS_API.upload, { schema: { params: groupParams }, preHandler }, async (req, reply) => {
      if (!req.isMultipart()) {
        throw new AppError(ErrorCode.UNSUPPORTED_MEDIA, 'Upload the file as multipart/form-data');
      }
      const file = await req.file({ limits: { fileSize: ctx.config.importMaxBytes, files: 1 } });
      if (!file) throw new FieldError({ file: ['Choose a CSV or XLSX file to upload'] });
      const bytes = await file.toBuffer();
      const result = await contactImports.upload({
        accountId: authOf(req).accountId,
        groupId: req.params.id,
        fileName: file.filename,
        bytes,
      });
      return reply.status(201).send(result);
    });

    r.post(
      CONTACTS_API.importCommit,
      { schema: { params: importParams, body: commitImportSchema }, preHandler },
      async (req, reply) => {
        const started = await contactImports.commit({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
          importId: req.params.importId,
          mapping: req.body.mapping,
        });
        return reply.status(202).send(started);
      },
    );

    r.get(CONTACTS_API.import, { schema: { params: importParams }, preHandler }, async (req) =>
      contactImports.get({
        accountId: authOf(req).accountId,
        groupId: req.params.id,
        importId: req.params.importId,
      }),
    );

    r.get(CONTACTS_API.importReport, { schema: { params: importParams }, preHandler }, async (req, reply) => {
      const { fileName, stream } = await contactImports.report({
        accountId: authOf(req).accountId,
        groupId: req.params.id,
        importId: req.params.importId,
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(fileName))
        .header('cache-control', 'no-store')
        .send(stream);
    });
  };
}
