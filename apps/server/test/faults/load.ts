import { randomUUID } from 'node:crypto';
import type { Rng } from './schedule';

/**
 * The fault run's clients and what they were told. A 2xx with ids is an acknowledgement (the
 * message must end in exactly one final status); a 503 with Retry-After is the promised answer
 * during an outage; a refused connection or a reset is "unknown" (the node died: the send may or may
 * not have committed, and either is allowed, once). Any other 5xx is a violation.
 */
export interface Ack {
  id: string;
  kind: 'single' | 'v1' | 'v1-idem' | 'otp' | 'scheduled' | 'campaign';
  /** Destination and text: how the simulators' records name it. */
  key: string;
}

export interface LoadRecord {
  acks: Map<string, Ack>;
  /** Idempotency-Key → the message ids its answers named. */
  idempotency: Map<string, Set<string>>;
  /** Scheduled messages whose cancel was acknowledged. */
  canceled: Set<string>;
  campaignId: string | null;
  campaignRecipients: number;
  otp: { sent: number; checked: number; approved: number };
  answers: Map<string, number>;
  violations: string[];
  unknown: number;
}

export const newRecord = (): LoadRecord => ({
  acks: new Map(),
  idempotency: new Map(),
  canceled: new Set(),
  campaignId: null,
  campaignRecipients: 0,
  otp: { sent: 0, checked: 0, approved: 0 },
  answers: new Map(),
  violations: [],
  unknown: 0,
});

/** A signed-in browser's headers: its access token and the XSRF cookie and header. */
export const sessionHeaders = (s: Session) => ({
  authorization: `Bearer ${s.accessToken}`,
  cookie: `XSRF-TOKEN=${s.xsrf}`,
  'x-xsrf-token': s.xsrf,
});

export interface Session {
  accessToken: string;
  /** The XSRF double-submit token session POSTs carry (cookie and header). */
  xsrf: string;
  apiKey: string;
  otpServiceId: string;
}

type Answer = { status: number; body: any; retryAfter: string | null } | null;

/** One HTTP call to one of the API nodes; null when the connection failed (the node is down). */
export async function call(
  record: LoadRecord,
  urls: () => string[],
  rng: Rng,
  method: string,
  path: string,
  body: unknown,
  auth: { headers: Record<string, string>; idempotencyKey?: string },
): Promise<Answer> {
  const live = urls();
  const url = live[Math.floor(rng() * live.length)];
  if (!url) return null;
  const headers: Record<string, string> = { ...auth.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (auth.idempotencyKey) headers['idempotency-key'] = auth.idempotencyKey;
  try {
    const res = await fetch(url + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const key = `${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')} ${res.status}`;
    record.answers.set(key, (record.answers.get(key) ?? 0) + 1);
    const retryAfter = res.headers.get('retry-after');
    if (res.status >= 500 && !(res.status === 503 && retryAfter)) {
      record.violations.push(`${key}: ${text.slice(0, 200)}`);
    }
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, retryAfter };
  } catch {
    record.unknown += 1;
    return null;
  }
}

let serial = 0;
/** A US number nobody else in the run uses (the single sends' and /v1's). */
const number = () => {
  serial += 1;
  return `+1212${String(2_000_000 + serial).padStart(7, '0')}`;
};

/**
 * Runs the mixed load until `stop()` is true: single sends, /v1 sends with and without
 * Idempotency-Key (a key is sometimes sent again), OTP sends, and scheduled sends canceled at once.
 * `concurrency` loops in parallel.
 */
export async function runLoad(opts: {
  record: LoadRecord;
  session: Session;
  urls: () => string[];
  rng: Rng;
  stop: () => boolean;
  concurrency: number;
  otpCodes: Map<string, string>;
}) {
  const { record, session, rng } = opts;
  const send = (method: string, path: string, body: unknown, idem?: string) =>
    call(record, opts.urls, rng, method, path, body, {
      headers: path.startsWith('/v1')
        ? { authorization: `Bearer ${session.apiKey}` }
        : sessionHeaders(session),
      idempotencyKey: idem,
    });
  const idemKeys: string[] = [];
  const otpPending: { id: string; to: string }[] = [];

  const one = async () => {
    const r = rng();
    if (r < 0.3) {
      const to = number();
      const text = `Fault single ${randomUUID().slice(0, 8)}`;
      const a = await send('POST', '/api/sms/single', { recipients: [to], text });
      if (a?.status === 202)
        record.acks.set(a.body.messages[0].id, {
          id: a.body.messages[0].id,
          kind: 'single',
          key: `${to}|${text}`,
        });
    } else if (r < 0.5) {
      const to = number();
      const text = `Fault v1 ${randomUUID().slice(0, 8)}`;
      const a = await send('POST', '/v1/messages', { to, text });
      if (a?.status === 202)
        record.acks.set(a.body.data[0].id, { id: a.body.data[0].id, kind: 'v1', key: `${to}|${text}` });
    } else if (r < 0.75) {
      // A new key, or a key sent before (a client's retry after a lost answer), with the same body.
      const again = idemKeys.length > 0 && rng() < 0.3;
      const key = again ? idemKeys[Math.floor(rng() * idemKeys.length)]! : randomUUID();
      const [to, text] = again ? key.split('#').slice(1) : [number(), `Fault idem ${key.slice(0, 8)}`];
      const idem = again ? key.split('#')[0]! : key;
      if (!again) idemKeys.push(`${idem}#${to}#${text}`);
      const a = await send('POST', '/v1/messages', { to, text }, idem);
      if (a?.status === 202) {
        const id = a.body.data[0].id as string;
        record.acks.set(id, { id, kind: 'v1-idem', key: `${to}|${text}` });
        const seen = record.idempotency.get(idem) ?? new Set<string>();
        seen.add(id);
        record.idempotency.set(idem, seen);
      }
    } else if (r < 0.85) {
      const to = number();
      const a = await send('POST', `/v1/otp/${session.otpServiceId}/send`, { to });
      if (a?.status === 201 || a?.status === 202 || a?.status === 200) {
        record.otp.sent += 1;
        const id = a.body.messageId as string;
        record.acks.set(id, { id, kind: 'otp', key: `${a.body.to}|otp` });
        otpPending.push({ id: a.body.id as string, to: a.body.to as string });
      }
    } else if (r < 0.92) {
      const pending = otpPending.shift();
      const code = pending && opts.otpCodes.get(pending.to);
      if (pending && code) {
        const a = await send('POST', `/v1/otp/${session.otpServiceId}/check`, { id: pending.id, code });
        if (a?.status === 200) {
          record.otp.checked += 1;
          if (a.body.status === 'approved') record.otp.approved += 1;
        }
      } else if (pending) otpPending.push(pending);
    } else {
      const to = number();
      const text = `Fault scheduled ${randomUUID().slice(0, 8)}`;
      const scheduleAt = new Date(Date.now() + 3600_000).toISOString();
      const a = await send('POST', '/api/sms/single', { recipients: [to], text, scheduleAt });
      if (a?.status === 202) {
        const id = a.body.messages[0].id as string;
        record.acks.set(id, { id, kind: 'scheduled', key: `${to}|${text}` });
        const c = await send('POST', `/api/sms/log/${id}/cancel`, undefined);
        if (c?.status === 200) record.canceled.add(id);
      }
    }
  };

  const loop = async () => {
    while (!opts.stop()) {
      await one();
      // A little think time: the run measures correctness, not throughput.
      await new Promise((r) => setTimeout(r, 20 + rng() * 60));
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, loop));
}
