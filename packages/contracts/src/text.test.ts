import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contracts from './index';
import { isSafeText, safeString, UNSAFE_TEXT_MESSAGE } from './text';

/** Response schemas describe what the server sends; the input rule does not apply to them. */
const isResponseSchema = (name: string) =>
  /(Dto|Response|Page|List|Pair|Result|Reply|Detail|Summary|Point|Counts|Recipient)Schema$/.test(name) ||
  [
    'userSchema',
    'balanceSchema',
    'noContentSchema',
    // Responses and pushed events whose names do not end in one of the words above.
    'adminUserSchema',
    'apiKeyCreatedSchema',
    'apiKeyReportSchema',
    'auditEntrySchema',
    'campaignAcceptedSchema',
    'campaignEstimateSchema',
    'campaignIssueSchema',
    'campaignTimelineSchema',
    'campaignClicksSchema',
    'campaignUploadSchema',
    'groupFieldsSchema',
    'missingValueSchema',
    'dashboardSummaryOfRoleSchema',
    'connectionStatusSchema',
    'inboundMessageEventSchema',
    'inviteSchema',
    'invitePreviewSchema',
    'memberSchema',
    'myAccountSchema',
    'recoveryCodesSchema',
    'twoFactorChallengeSchema',
    'twoFactorEnrollmentSchema',
    'twoFactorStatusSchema',
    'ledgerEntrySchema',
    'messageStatusEventSchema',
    'previewRowSchema',
    'priceSchema',
    'pricePreviewSchema',
    'sessionStatusSchema',
    'systemStatusSchema',
    'v1BalanceSchema',
    'v1ContactSchema',
    'v1ErrorSchema',
    'v1GroupSchema',
    'v1MessageSchema',
    'smppAccountCreatedSchema',
    'smppServerInfoSchema',
  ].includes(name);

interface Def {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  keyType?: z.ZodType;
  options?: z.ZodType[];
  items?: z.ZodType[];
}
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Every free-text string (no format such as uuid or datetime) inside a schema, with its path. */
function stringLeaves(schema: z.ZodType, path: string, out: [string, z.ZodType][]) {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      if (!def.format) out.push([path, schema]);
      return;
    case 'object':
      for (const [k, v] of Object.entries(def.shape ?? {})) stringLeaves(v, `${path}.${k}`, out);
      return;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      stringLeaves(def.innerType!, path, out);
      return;
    case 'pipe':
      stringLeaves(def.in!, path, out);
      return;
    case 'array':
      stringLeaves(def.element!, `${path}[]`, out);
      return;
    case 'record':
      stringLeaves(def.keyType!, `${path}{key}`, out);
      stringLeaves(def.valueType!, `${path}{}`, out);
      return;
    case 'union':
      def.options!.forEach((o, i) => stringLeaves(o, `${path}|${i}`, out));
      return;
    case 'tuple':
      def.items!.forEach((o, i) => stringLeaves(o, `${path}[${i}]`, out));
      return;
    default:
      return;
  }
}

describe('the one string rule', () => {
  it('rejects NUL and lone surrogates, and keeps emoji and other text', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800']) {
      expect(isSafeText(bad)).toBe(false);
      expect(safeString().safeParse(bad).error?.issues[0]?.message).toBe(UNSAFE_TEXT_MESSAGE);
    }
    for (const good of ['', 'plain', '😀 emoji', 'Привет', '\u0001 control', '\ufffd']) {
      expect(isSafeText(good)).toBe(true);
    }
  });

  it('guards every text field of every request schema in the contracts', () => {
    const leaves: [string, z.ZodType][] = [];
    for (const [name, value] of Object.entries(contracts)) {
      if (!name.endsWith('Schema') || isResponseSchema(name)) continue;
      stringLeaves(value as z.ZodType, name, leaves);
    }
    expect(leaves.length).toBeGreaterThan(30);
    const unguarded = leaves
      .filter(([, s]) => {
        const issues = (s as z.ZodType).safeParse('a\u0000b').error?.issues ?? [];
        return !issues.some((i) => i.message === UNSAFE_TEXT_MESSAGE);
      })
      .map(([path]) => path)
      // The page cursor is base64url only, which already leaves NUL out.
      .filter((path) => !path.endsWith('.cursor') && path !== 'pageCursorSchema');
    expect(unguarded).toEqual([]);
  });
});
