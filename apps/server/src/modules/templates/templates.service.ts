import {
  analyseSmsText,
  ErrorCode,
  extractPlaceholders,
  saveTemplateSchema,
  type TemplateDto,
  type TemplateList,
  type UpdateTemplateInput,
} from '@wren/contracts';
import type { Db } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { parseInput } from '../../shared/parse-input';
import { isUniqueViolation } from '../../shared/unique-violation';
import * as repo from './templates.repository';

export function toTemplate(row: repo.TemplateRow): TemplateDto {
  const info = analyseSmsText(row.text);
  return {
    id: row.id,
    name: row.name,
    text: row.text,
    placeholders: extractPlaceholders(row.text),
    encoding: info.encoding,
    segments: info.segments,
    characters: info.characters,
    unicodeChars: info.unicodeChars,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const nameTaken = (name: string) =>
  new AppError(ErrorCode.CONFLICT, `You already have a template named "${name}"`);

/** Saved messages: named texts with their placeholders and segment/encoding info. */
export function createTemplatesService(deps: { db: Db; events: EventBus }) {
  const { db, events } = deps;
  const changed = (accountId: string) => events.publish('template.changed', { accountId });

  return {
    async list(input: { accountId: string }): Promise<TemplateList> {
      const rows = await repo.listTemplates(db, input.accountId);
      return { items: rows.map(toTemplate) };
    },

    async get(input: { accountId: string; id: string }): Promise<TemplateDto> {
      const row = await repo.findTemplate(db, input.accountId, input.id);
      if (!row) throw notFound('Template');
      return toTemplate(row);
    },

    async create(input: { accountId: string; name: string; text: string }): Promise<TemplateDto> {
      const row = await repo.insertTemplate(db, input);
      if (!row) throw nameTaken(input.name);
      changed(input.accountId);
      return toTemplate(row);
    },

    /**
     * Creates a template, or replaces the text of the account's template with the same name
     * (case-insensitive). The hub's SaveSmsTemplate(name, text) calls this; input is validated here.
     */
    async saveTemplate(input: { accountId: string; name: string; text: string }): Promise<TemplateDto> {
      const { name, text } = parseInput(saveTemplateSchema, { name: input.name, text: input.text });
      const row = await repo.upsertTemplateByName(db, { accountId: input.accountId, name, text });
      changed(input.accountId);
      return toTemplate(row);
    },

    async update(input: { accountId: string; id: string; patch: UpdateTemplateInput }): Promise<TemplateDto> {
      let row: repo.TemplateRow | undefined;
      try {
        row = await repo.updateTemplate(db, input.accountId, input.id, input.patch);
      } catch (err) {
        if (isUniqueViolation(err, 'templates_name_key')) throw nameTaken(input.patch.name ?? '');
        throw err;
      }
      if (!row) throw notFound('Template');
      changed(input.accountId);
      return toTemplate(row);
    },

    async remove(input: { accountId: string; id: string }): Promise<void> {
      if (!(await repo.deleteTemplate(db, input.accountId, input.id))) throw notFound('Template');
      changed(input.accountId);
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
