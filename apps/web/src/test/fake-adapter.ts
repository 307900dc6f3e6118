import type { RawResponse, RequestConfig, Transport } from '@/lib/http/client';

/** What the fake server answers; status 0 means the network failed (no response). */
export interface FakeReply {
  status: number;
  data?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delay?: number;
}

export type FakeHandler = (config: RequestConfig) => FakeReply | Promise<FakeReply>;

export interface FakeAdapter extends Transport {
  calls: RequestConfig[];
}

/**
 * A transport that answers from a handler, as the real one does: every HTTP status is a response
 * (the client decides what rejects); no response (status 0) throws like a failed fetch; an aborted
 * signal throws its reason.
 */
export function fakeAdapter(handler: FakeHandler): FakeAdapter {
  const calls: RequestConfig[] = [];
  const adapter = async (config: RequestConfig): Promise<RawResponse> => {
    calls.push(config);
    const reply = await handler(config);
    if (reply.delay) await new Promise((resolve) => setTimeout(resolve, reply.delay));
    config.signal?.throwIfAborted();
    if (reply.status === 0) throw new TypeError('Failed to fetch');
    return { status: reply.status, headers: new Headers(reply.headers), data: reply.data ?? '' };
  };
  return Object.assign(adapter, { calls });
}

/** The JSON body a request was sent with. */
export function bodyOf(config: RequestConfig): unknown {
  return typeof config.data === 'string' ? JSON.parse(config.data) : config.data;
}
