import {
  AxiosError,
  AxiosHeaders,
  type AxiosAdapter,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';

/** What the fake server answers; status 0 means the network failed (no response). */
export interface FakeReply {
  status: number;
  data?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delay?: number;
}

export type FakeHandler = (config: InternalAxiosRequestConfig) => FakeReply | Promise<FakeReply>;

export interface FakeAdapter extends AxiosAdapter {
  calls: InternalAxiosRequestConfig[];
}

/** An axios transport that answers from a handler, settling like the real adapters do. */
export function fakeAdapter(handler: FakeHandler): FakeAdapter {
  const calls: InternalAxiosRequestConfig[] = [];
  const adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    calls.push(config);
    const reply = await handler(config);
    if (reply.delay) await new Promise((resolve) => setTimeout(resolve, reply.delay));
    if (reply.status === 0) throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
    const response: AxiosResponse = {
      data: reply.data ?? '',
      status: reply.status,
      statusText: '',
      headers: new AxiosHeaders(reply.headers),
      config,
      request: {},
    };
    if (reply.status >= 200 && reply.status < 300) return response;
    const code = reply.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST;
    throw new AxiosError(`Request failed with status code ${reply.status}`, code, config, {}, response);
  };
  return Object.assign(adapter, { calls });
}

/** The JSON body a request was sent with. */
export function bodyOf(config: InternalAxiosRequestConfig): unknown {
  return typeof config.data === 'string' ? JSON.parse(config.data) : config.data;
}
