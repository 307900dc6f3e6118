import {
  commitImportSchema,
  CONTACTS_API,
  fileResponse,
  importDtoSchema,
  importUploadDtoSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';
import { readUpload } from '../../platform/http/upload';
import { csvDownloadHeaders } from './csv';
import { groupParams } from './groups.routes';

const importParams = groupParams.extend({ importId: z.uuid('Unknown import id') });

export function importsRoutes(ctx: AppContext) {
  const { contactImports } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // Running imports stop between batches (and are undone) before the database closes.
    app.addHook('onClose', async () => contactImports.stop());

    r.post(
      CONTACTS_API.upload,
      {
        config: can('contacts:write'),
        schema: { params: groupParams, response: { 201: importUploadDtoSchema } },
      },
      async (req, reply) => {
        const { fileName, bytes } = await readUpload(req, {
          maxBytes: ctx.config.importMaxBytes,
          notMultipart: 'Upload the file as multipart/form-data',
          missing: 'Choose a CSV or XLSX file to upload',
        });
        const result = await contactImports.upload({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
          fileName,
          bytes,
        });
        return reply.status(201).send(result);
      },
    );

    r.post(
      CONTACTS_API.importCommit,
      {
        config: can('contacts:write'),
        schema: { params: importParams, body: commitImportSchema, response: { 202: importDtoSchema } },
      },
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

    r.get(
      CONTACTS_API.import,
      { config: can('contacts:read'), schema: { params: importParams, response: { 200: importDtoSchema } } },
      async (req) =>
        contactImports.get({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
          importId: req.params.importId,
        }),
    );

    r.get(
      CONTACTS_API.importReport,
      {
        config: can('contacts:read'),
        schema: {
          params: importParams,
          response: { 200: fileResponse('text/csv', 'The rows the import skipped, with the reason') },
        },
      },
      async (req, reply) => {
        const { fileName, stream } = await contactImports.report({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
          importId: req.params.importId,
        });
        return reply.headers(csvDownloadHeaders(fileName)).send(stream);
      },
    );
  };
}
