import { randomUUID } from 'node:crypto';
import { SHORT_LINK_CODE_LENGTH, withSampleLinks } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { transact } from '../../platform/db';
import { CLICK_FLUSH_MS } from './click-recorder';

/**
 * Tracked short links (issue 41 item 2) through the real server: a campaign with trackLinks sends
 * each recipient a short link of its own, counted at its length; /l/{code} redirects, records the
 * click (a bot's without counting it), and the campaign counts clicks and unique clicks. Unknown
 * and expired codes get a plain 404 page.
 */
let server: TestServer;
let c: ApiClient;
const CODE = new RegExp(`/l/([A-Za-z0-9_-]{${SHORT_LINK_CODE_LENGTH}})`, 'g');
const TEXT = 'Spring sale: https://shop.example/sale?src=sms. Terms http://shop.example/t';
const NUMBERS = ['+447911000101', '+447911000102', '+447911000103'];

beforeAll(async () => {
  server = await startServer({ SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100' }, { worker: true });
  c = server.client();
  const reg = await c.register();
  await transact(server.ctx.db, (trx) =>
    server.ctx.services.ledger.post(trx, {
      accountId: reg.user.accountId,
      amountMinor: 1_000_000,
      kind: 'top_up',
      reference: randomUUID(),
    }),
  );
});
afterAll(() => server?.close());

async function messagesOf(campaignId: string) {
  for (let i = 0; i < 100; i++) {
    const rows = await server.ctx.db
      .selectFrom('messages')
      .select(['id', 'body', 'segments', 'recipient'])
      .where('campaign_id', '=', campaignId)
      .execute();
    if (rows.length === NUMBERS.length) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the campaign was not materialised');
}

const open = (code: string, ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148') =>
  fetch(`${server.url}/l/${code}`, { redirect: 'manual', headers: { 'user-agent': ua } });

async function campaign(id: string) {
  for (let i = 0; i < 40; i++) await new Promise((r) => setTimeout(r, CLICK_FLUSH_MS / 4));
  return (await c.get(`/api/campaigns/${id}`)).body;
}

describe('tracked short links', () => {
  let campaignId: string;
  let codes: string[][];

  it('counts the text with its short links and sends each recipient links of its own', async () => {
    const source = { numbers: NUMBERS.join('\n'), text: TEXT, trackLinks: true };
    const est = await c.post('/api/campaigns/estimate', source);
    expect(est.status, JSON.stringify(est.body)).toBe(200);
    const base = server.ctx.config.linkBase;
    const counted = withSampleLinks(TEXT, base);
    expect(est.body.characters).toBe(counted.length);
    // The check can tell: the text as typed has another length.
    expect(counted.length).not.toBe(TEXT.length);

    const res = await c.post('/api/campaigns', source);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    campaignId = res.body.campaign.id;
    expect(res.body.campaign).toMatchObject({ trackLinks: true, clicks: 0, uniqueClicks: 0 });
    const messages = await messagesOf(campaignId);
    codes = messages.map((m) => [...m.body.matchAll(CODE)].map((x) => x[1]!));
    for (const [i, m] of messages.entries()) {
      expect(codes[i]).toHaveLength(2);
      expect(m.body).toBe(`Spring sale: ${base}/l/${codes[i]![0]}. Terms ${base}/l/${codes[i]![1]}`);
      expect(m.body.length).toBe(counted.length);
      expect(m.segments).toBe(est.body.segments);
    }
    expect(new Set(codes.flat()).size).toBe(6);
    const stored = await server.ctx.db
      .selectFrom('short_links')
      .selectAll()
      .where('campaign_id', '=', campaignId)
      .execute();
    expect(stored.map((l) => l.url).sort()).toEqual([
      ...Array(3).fill('http://shop.example/t'),
      ...Array(3).fill('https://shop.example/sale?src=sms'),
    ]);
  });

  it('redirects to the original URL and counts clicks, unique clicks and the click-through rate', async () => {
    const [first, second] = codes;
    const r1 = await open(first![0]!);
    expect(r1.status).toBe(302);
    expect(r1.headers.get('location')).toBe('https://shop.example/sale?src=sms');
    expect(r1.headers.get('cache-control')).toContain('no-store');
    expect((await open(first![0]!)).status).toBe(302);
    expect(
      (await open(second![1]!, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).headers.get('location'),
    ).toBe('http://shop.example/t');
    // A chat app's link preview: redirected, stored as a bot, not counted.
    expect((await open(codes[2]![0]!, 'WhatsApp/2.23.20.0 A')).status).toBe(302);

    const dto = await campaign(campaignId);
    expect(dto).toMatchObject({ clicks: 3, uniqueClicks: 2 });
    const delivered = dto.delivered as number;
    expect(dto.clickThroughRate).toBe(delivered ? Math.round((2 / delivered) * 10_000) / 10_000 : 0);
    const rows = await server.ctx.db
      .selectFrom('link_clicks')
      .select(['device', 'country'])
      .where('campaign_id', '=', campaignId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.device)).toEqual(['mobile', 'mobile', 'desktop', 'bot']);

    // The campaign's CSV export has each message's clicks (a bot's not counted).
    const csv = await c.get<string>(`/api/campaigns/${campaignId}/messages/export.csv`);
    expect(csv.status).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/,Message ID,Link clicks$/);
    const clicksOf = new Map(lines.slice(1).map((l) => [l.split(',').at(-2), Number(l.split(',').at(-1))]));
    const byCode = async (code: string) =>
      clicksOf.get((await messagesOf(campaignId)).find((m) => m.body.includes(code))!.id);
    expect([await byCode(first![0]!), await byCode(second![0]!), await byCode(codes[2]![0]!)]).toEqual([
      2, 1, 0,
    ]);

    // Clicks over time: this hour's 3 human clicks, 2 of them first clicks; by device and country;
    // another account cannot read them.
    const series = await c.get(`/api/campaigns/${campaignId}/clicks`);
    expect(series.status).toBe(200);
    const hour = new Date();
    hour.setUTCMinutes(0, 0, 0);
    expect(series.body).toMatchObject({
      bucket: 'hour',
      points: [{ at: hour.toISOString(), clicks: 3, firstClicks: 2 }],
      devices: [
        { device: 'mobile', clicks: 2 },
        { device: 'desktop', clicks: 1 },
      ],
    });
    expect(series.body.countries.reduce((n: number, x: { clicks: number }) => n + x.clicks, 0)).toBe(3);
    const stranger = server.client();
    await stranger.register();
    expect((await stranger.get(`/api/campaigns/${campaignId}/clicks`)).status).toBe(404);
  });

  it('answers a plain 404 page for an unknown, malformed or expired code', async () => {
    for (const code of ['AAAAAAAAAAAA', 'short', 'not%20a%20code']) {
      const res = await open(code);
      expect(res.status, code).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('This link is not valid or has expired');
    }
    await server.ctx.db
      .updateTable('short_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('code', '=', codes[1]![0]!)
      .execute();
    expect((await open(codes[1]![0]!)).status).toBe(404);
  });

  it('leaves the links of a campaign without tracking as they are', async () => {
    const res = await c.post('/api/campaigns', { numbers: NUMBERS.join('\n'), text: TEXT });
    expect(res.status).toBe(202);
    expect(res.body.campaign.trackLinks).toBe(false);
    const messages = await messagesOf(res.body.campaign.id);
    expect(messages.map((m) => m.body)).toEqual(Array(3).fill(TEXT));
  });
});
