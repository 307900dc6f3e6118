/**
 * The wire under the HTTP client (client.ts): `fetch`, or `XMLHttpRequest` when the caller wants
 * upload progress (fetch cannot report it). A transport answers every HTTP status with a
 * response; it throws only when no response came (a network failure, or an abort).
 */

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';

/** Query parameters (an object's own fields); `undefined` and `null` are left out, arrays repeat as `key[]`. */
export type Params = object;

export interface UploadProgress {
  loaded: number;
  /** Absent when the browser cannot tell the body's size. */
  total?: number;
}

/** Header names are case-insensitive; `get` answers `undefined` for a header that is not set. */
export class RequestHeaders {
  private readonly values = new Map<string, [string, string]>();

  constructor(init?: Record<string, string | undefined> | RequestHeaders) {
    if (init instanceof RequestHeaders) {
      for (const [name, value] of init.entries()) this.set(name, value);
    } else if (init) {
      for (const [name, value] of Object.entries(init)) if (value !== undefined) this.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.values.get(name.toLowerCase())?.[1];
  }

  set(name: string, value: string): this {
    this.values.set(name.toLowerCase(), [name, value]);
    return this;
  }

  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.values.delete(name.toLowerCase());
  }

  /** Name (as first set) and value pairs. */
  entries(): [string, string][] {
    return [...this.values.values()];
  }
}

/** A request as the transport sends it: the body already encoded, the headers final. */
export interface RequestConfig {
  method: Method;
  url: string;
  params?: Params;
  /** The encoded body: a JSON string, FormData, Blob, ... or `undefined` for none. */
  data?: XMLHttpRequestBodyInit;
  headers: RequestHeaders;
  /** 'blob' reads a successful body as a Blob; otherwise JSON when it parses, else text. */
  responseType?: 'json' | 'text' | 'blob';
  signal?: AbortSignal;
  /** Upload progress; the request then goes through XMLHttpRequest. */
  onUploadProgress?: (event: UploadProgress) => void;
  /** Which statuses resolve (default: 2xx); any other rejects with an HttpError. */
  validateStatus?: (status: number) => boolean;
  /**
   * Keeps this request off the full-screen busy overlay, on top of SPEC.md §4's own exceptions
   * (POSTs ending in "dt" or "/log", any "fileUpload" URL). For background reads (polling, live
   * refetches) whose screens show their own skeletons or spinners.
   */
  noOverlay?: boolean;
  /** Set when this request raised the busy counter. */
  _busy?: boolean;
  /** Set on the retry after a token refresh; a second 401 is not refreshed again. */
  _retried?: boolean;
}

/** What a transport hands back for any HTTP status. */
export interface RawResponse {
  status: number;
  headers: Headers;
  data: unknown;
}

export type Transport = (config: RequestConfig) => Promise<RawResponse>;

export const isOkStatus = (status: number) => status >= 200 && status < 300;

function appendParam(search: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) appendParam(search, `${key}[]`, item);
    return;
  }
  if (value instanceof Date) search.append(key, value.toISOString());
  else if (typeof value === 'string') search.append(key, value);
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    search.append(key, String(value));
  else search.append(key, JSON.stringify(value));
}

/** The URL with its query parameters appended (to any query it already has). */
export function urlWithParams(url: string, params: Params | undefined): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params as Record<string, unknown>))
    appendParam(search, key, value);
  const query = search.toString();
  if (!query) return url;
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

/** A body as the app sees it: JSON when it parses (an empty body is ''), else the text. */
export function parseBody(text: string): unknown {
  if (!text) return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const wantsBlob = (config: RequestConfig, status: number) =>
  config.responseType === 'blob' && (config.validateStatus ?? isOkStatus)(status);

/** The default transport: fetch. */
export const fetchTransport: Transport = async (config) => {
  if (config.onUploadProgress) return xhrTransport(config);
  const response = await fetch(urlWithParams(config.url, config.params), {
    method: config.method.toUpperCase(),
    headers: config.headers.entries(),
    body: config.data,
    signal: config.signal,
    credentials: 'same-origin',
  });
  // A failed blob request is read as text, so its error message can be shown.
  const data = wantsBlob(config, response.status) ? await response.blob() : parseBody(await response.text());
  return { status: response.status, headers: response.headers, data };
};

function headersOf(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // a header the Headers class refuses is of no use to the app
    }
  }
  return headers;
}

/** The signal's reason when it is an error, else a DOMException named AbortError (as fetch does). */
const abortError = (signal: AbortSignal | undefined): Error =>
  signal?.reason instanceof Error ? signal.reason : new DOMException('The request was aborted', 'AbortError');

/** XMLHttpRequest, for the requests that report upload progress. */
export function xhrTransport(config: RequestConfig): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const { signal } = config;
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(config.method.toUpperCase(), urlWithParams(config.url, config.params));
    for (const [name, value] of config.headers.entries()) xhr.setRequestHeader(name, value);
    xhr.responseType = 'blob';
    const progress = config.onUploadProgress;
    if (progress && xhr.upload) {
      xhr.upload.onprogress = (event) =>
        progress({ loaded: event.loaded, total: event.lengthComputable ? event.total : undefined });
    }
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      const blob = xhr.response as Blob;
      const answer = (data: unknown) => resolve({ status: xhr.status, headers: headersOf(xhr), data });
      if (wantsBlob(config, xhr.status)) answer(blob);
      else blob.text().then((text) => answer(parseBody(text)), reject);
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('Network request failed'));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(abortError(signal));
    };
    xhr.send(config.data ?? null);
  });
}

/** Whether a transport's error is an abort (the caller's signal), not a network failure. */
export function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError');
}
