import {
  bulkDeleteContactsSchema,
  CONTACTS_API,
  createContactSchema,
  listContactsQuerySchema,
  updateContactSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { authOf } from '../../platform/http/auth-guard';
import { attachment } from './csv';
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
      { schema: { params: groupParams, querystring: listContactsQuerySchema } },
      async (req) =>
        contacts.list({ accountId: authOf(req).accountId, groupId: req.params.id, query: req.query }),
    );

    r.post(
      CONTACTS_API.contacts,
      { schema: { params: groupParams, body: createContactSchema } },
      async (req, reply) => {
        const created = await contacts.create({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
          contact: req.body,
        });
        return reply.status(201).send(created);
      },
    );

    r.get(CONTACTS_API.contact, { schema: { params: contactParams } }, async (req) =>
      contacts.get({ accountId: authOf(req).accountId, groupId: req.params.id, id: req.params.contactId }),
    );

    r.patch(
      CONTACTS_API.contact,
      { schema: { params: contactParams, body: updateContactSchema } },
      async (req) =>
        contacts.update({
          accountId: authOf(req).accountId,
          groupId: req.params.id,
          id: req.params.contactId,
          patch: req.body,
        }),
    );

    r.delete(CONTACTS_API.contact, { schema: { params: contactParams } }, async (req, reply) => {
      await contacts.remove({
        accountId: authOf(req).accountId,
        groupId: req.params.id,
        id: req.params.contactId,
      });
      return reply.status(204).send();
    });

    r.post(
      CONTACTS_API.bulkDelete,
      { schema: { params: groupParams, body: bulkDeleteContactsSchema } },
      async (req) =>
        contacts.bulkRemove({ accountId: authOf(req).accountId, groupId: req.params.id, ids: req.body.ids }),
    );

    r.get(CONTACTS_API.export, { schema: { params: groupParams } }, async (req, reply) => {
      const { fileName, stream } = await contacts.exportCsv({
        accountId: authOf(req).accountId,
        groupId: req.params.id,
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(fileName))
        .header('cache-control', 'no-store')
        .send(stream);
    });
  };
}
