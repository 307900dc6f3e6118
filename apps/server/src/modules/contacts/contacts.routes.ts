import {
  bulkDeleteContactsSchema,
  bulkDeleteResultSchema,
  contactDtoSchema,
  contactPageSchema,
  CONTACTS_API,
  createContactSchema,
  fileResponse,
  listContactsQuerySchema,
  noContentSchema,
  updateContactSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';
import { csvDownloadHeaders } from './csv';
import { groupParams, groupsRoutes } from './groups.routes';
import { importsRoutes } from './imports.routes';

const contactParams = groupParams.extend({ contactId: z.uuid('Unknown contact id') });

/** Groups, their contacts, imports and export. */
export function contactsRoutes(ctx: AppContext) {
  const { contacts } = ctx.services;

  return async (app: FastifyInstance) => {
    await app.register(groupsRoutes(ctx));
    await app.register(importsRoutes(ctx));
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      CONTACTS_API.contacts,
      {
        config: can('contacts:read'),
        schema: {
          params: groupParams,
          querystring: listContactsQuerySchema,
          response: { 200: contactPageSchema },
        },
      },
      async (req) =>
        contacts.list({ accountId: authOf(req).accountId, groupId: req.params.id, query: req.query }),
    );

    r.post(
      CONTACTS_API.contacts,
      {
        config: can('contacts:write'),
        schema: { params: groupParams, body: createContactSchema, response: { 201: contactDtoSchema } },
      },
      async (req, reply) => {
        const created = await contacts.create({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
          contact: req.body,
        });
        return reply.status(201).send(created);
      },
    );

    r.get(
      CONTACTS_API.contact,
      {
        config: can('contacts:read'),
        schema: { params: contactParams, response: { 200: contactDtoSchema } },
      },
      async (req) =>
        contacts.get({ accountId: authOf(req).accountId, groupId: req.params.id, id: req.params.contactId }),
    );

    r.patch(
      CONTACTS_API.contact,
      {
        config: can('contacts:write'),
        schema: { params: contactParams, body: updateContactSchema, response: { 200: contactDtoSchema } },
      },
      async (req) =>
        contacts.update({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
          id: req.params.contactId,
          patch: req.body,
        }),
    );

    r.delete(
      CONTACTS_API.contact,
      {
        config: can('contacts:write'),
        schema: { params: contactParams, response: { 204: noContentSchema } },
      },
      async (req, reply) => {
        await contacts.remove({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
          id: req.params.contactId,
        });
        return reply.status(204).send();
      },
    );

    r.post(
      CONTACTS_API.bulkDelete,
      {
        config: can('contacts:write'),
        schema: {
          params: groupParams,
          body: bulkDeleteContactsSchema,
          response: { 200: bulkDeleteResultSchema },
        },
      },
      async (req) =>
        contacts.bulkRemove({ accountId: authOf(req).accountId, groupId: req.params.id, ids: req.body.ids }),
    );

    r.get(
      CONTACTS_API.export,
      {
        config: can('contacts:read'),
        schema: {
          params: groupParams,
          response: { 200: fileResponse('text/csv', "The group's contacts as CSV") },
        },
      },
      async (req, reply) => {
        const { fileName, stream } = await contacts.exportCsv({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
        });
        return reply.headers(csvDownloadHeaders(fileName)).send(stream);
      },
    );
  };
}
