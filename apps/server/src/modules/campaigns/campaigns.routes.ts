import { Readable } from 'node:stream';
import {
  campaignAcceptedSchema,
  campaignDtoSchema,
  campaignEstimateSchema,
  campaignListQuerySchema,
  campaignPageSchema,
  CAMPAIGNS_API,
  campaignSourceSchema,
  campaignClicksSchema,
  campaignTimelineSchema,
  campaignUploadSchema,
  createCampaignSchema,
  fileResponse,
  MESSAGE_STATUSES,
  rescheduleCampaignSchema,
  roleCan,
  smsLogPageSchema,
  smsLogQuerySchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { readOptions } from '../../platform/http/read-after-write';
import { can } from '../../platform/http/route-auth';
import { readUpload } from '../../platform/http/upload';
import { csvDownloadHeaders, CSV_BOM, csvLine } from '../../shared/csv';
import { exportSlotsOf, sendCsvExport } from '../messages/export-slots';
import { smsLogCsvHeader, smsLogCsvRows, smsLogCsvRowsWith } from '../messages/sms-log-csv';
import { createCampaignsService, type CampaignsService } from './campaigns.service';

const idParams = z.object({ id: z.uuid('Unknown campaign id') });

const services = new WeakMap<object, CampaignsService>();

/** The campaigns service of a context (one per context: it registers the materialiser's job). */
export function campaignsOf(ctx: AppContext): CampaignsService {
  let s = services.get(ctx);
  if (!s) {
    s = createCampaignsService({
      db: ctx.db,
      config: ctx.config,
      events: ctx.events,
      ledger: ctx.services.ledger,
      pricing: ctx.services.pricing,
      resolveSender: (input) => ctx.services.senderIds.resolveSenderForSend(input),
      filterSuppressed: ctx.services.inbound.filterSuppressed,
      smsLog: (accountId, q) => ctx.services.messages.log(accountId, q),
      jobs: ctx.jobs,
      logger: ctx.logger,
    });
    services.set(ctx, s);
  }
  return s;
}

export function campaignsRoutes(ctx: AppContext) {
  const campaigns = campaignsOf(ctx);

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    app.addHook('onClose', async () => campaigns.stop());

    r.post(
      CAMPAIGNS_API.upload,
      { config: can('messages:send'), schema: { response: { 201: campaignUploadSchema } } },
      async (req, reply) => {
        const { fileName, bytes } = await readUpload(req, {
          maxBytes: ctx.config.importMaxBytes,
          notMultipart: 'Upload the file as multipart/form-data',
          missing: 'Choose a CSV, TXT or XLSX file to upload',
        });
        const result = await campaigns.upload({ accountId: authOf(req).accountId, fileName, bytes });
        return reply.status(201).send(result);
      },
    );

    r.post(
      CAMPAIGNS_API.estimate,
      {
        config: can('messages:send'),
        bodyLimit: 1024 * 1024,
        schema: { body: campaignSourceSchema, response: { 200: campaignEstimateSchema } },
      },
      async (req) => {
        const auth = authOf(req);
        const estimate = await campaigns.estimate(auth.accountId, req.body);
        // A sender may send, but the balance is billing:read's (the web shows it only to those).
        return roleCan(auth.accountRole, 'billing:read')
          ? estimate
          : { ...estimate, balanceMinor: null, balanceAfterMinor: null };
      },
    );

    r.post(
      CAMPAIGNS_API.issues,
      {
        config: can('messages:send'),
        bodyLimit: 1024 * 1024,
        schema: {
          body: campaignSourceSchema,
          response: { 200: fileResponse('text/csv', 'Recipients that will not be sent to, with the reason') },
        },
      },
      async (req, reply) => {
        const issues = await campaigns.issues(authOf(req).accountId, req.body);
        async function* csv() {
          yield CSV_BOM + csvLine(['Row', 'Number', 'Reason']);
          for (let i = 0; i < issues.length; i += 1000) {
            yield issues
              .slice(i, i + 1000)
              .map((x) => csvLine([x.row === null ? '' : String(x.row), x.value, x.reason]))
              .join('');
          }
        }
        return reply.headers(csvDownloadHeaders('recipients-not-sent.csv')).send(Readable.from(csv()));
      },
    );

    r.post(
      CAMPAIGNS_API.list,
      {
        config: can('messages:send'),
        bodyLimit: 1024 * 1024,
        schema: { body: createCampaignSchema, response: { 202: campaignAcceptedSchema } },
      },
      async (req, reply) => {
        const { accountId, userId } = authOf(req);
        return reply.status(202).send(await campaigns.create({ ...req.body, accountId, userId }));
      },
    );

    r.get(
      CAMPAIGNS_API.list,
      {
        config: can('messages:read'),
        schema: { querystring: campaignListQuerySchema, response: { 200: campaignPageSchema } },
      },
      async (req) =>
        ctx.reads.read((db) => campaigns.list(authOf(req).accountId, req.query, db), readOptions(req)),
    );

    r.get(
      CAMPAIGNS_API.item,
      { config: can('messages:read'), schema: { params: idParams, response: { 200: campaignDtoSchema } } },
      async (req) => campaigns.get(authOf(req).accountId, req.params.id),
    );

    r.get(
      CAMPAIGNS_API.messages,
      {
        config: can('messages:read'),
        schema: { params: idParams, querystring: smsLogQuerySchema, response: { 200: smsLogPageSchema } },
      },
      async (req) => campaigns.messages(authOf(req).accountId, req.params.id, req.query),
    );

    r.get(
      CAMPAIGNS_API.export,
      {
        config: can('reports:read'),
        schema: {
          params: idParams,
          querystring: z.object({ status: z.enum(MESSAGE_STATUSES).optional() }),
          response: { 200: fileResponse('text/csv', "The campaign's messages as CSV") },
        },
      },
      async (req, reply) => {
        const accountId = authOf(req).accountId;
        let tracked = false;
        // Under the same per-account and per-node export caps as the SMS log's export.
        return sendCsvExport(reply, {
          slots: exportSlotsOf(ctx),
          accountId,
          fileName: `campaign-${req.params.id.slice(0, 8)}.csv`,
          pages: campaigns.exportMessages(accountId, req.params.id, req.query.status, (t) => (tracked = t)),
          header: () => (tracked ? smsLogCsvHeader(['Link clicks']) : smsLogCsvHeader()),
          rows: (items) =>
            tracked ? smsLogCsvRowsWith(items, (m) => [String(m.linkClicks ?? 0)]) : smsLogCsvRows(items),
        });
      },
    );

    r.get(
      CAMPAIGNS_API.timeline,
      {
        config: can('messages:read'),
        schema: { params: idParams, response: { 200: campaignTimelineSchema } },
      },
      async (req) => campaigns.timeline(authOf(req).accountId, req.params.id),
    );

    r.get(
      CAMPAIGNS_API.clicks,
      {
        config: can('messages:read'),
        schema: { params: idParams, response: { 200: campaignClicksSchema } },
      },
      async (req) => campaigns.clicks(authOf(req).accountId, req.params.id),
    );

    for (const action of ['pause', 'resume', 'cancel'] as const) {
      r.post(
        CAMPAIGNS_API[action],
        { config: can('messages:send'), schema: { params: idParams, response: { 200: campaignDtoSchema } } },
        async (req) => campaigns[action](authOf(req).accountId, req.params.id),
      );
    }

    r.post(
      CAMPAIGNS_API.reschedule,
      {
        config: can('messages:send'),
        schema: { params: idParams, body: rescheduleCampaignSchema, response: { 200: campaignDtoSchema } },
      },
      async (req) =>
        campaigns.reschedule(authOf(req).accountId, req.params.id, req.body.scheduleAt, req.body.timezone),
    );

    r.post(
      CAMPAIGNS_API.resendFailed,
      {
        config: can('messages:send'),
        schema: { params: idParams, response: { 202: campaignAcceptedSchema } },
      },
      async (req, reply) => {
        const { accountId, userId } = authOf(req);
        return reply.status(202).send(await campaigns.resendFailed(accountId, userId, req.params.id));
      },
    );
  };
}
