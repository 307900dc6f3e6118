import { API, type TokenPair } from '@wren/contracts';
import { busy as appBusy, countsAsBusy, type BusyCounter } from '../busy';
import { clearSession, getAccessToken, getRefreshToken, setTokens } from '../session';
import { HttpError, MSG_CANCELED, toHttpError } from './http-error';
import {
  RequestHeaders,
  fetchTransport,
  isAbort,
  isOkStatus,
  type Method,
  type Params,
  type RawResponse,
  type RequestConfig,
  type Transport,
  type UploadProgress,
} from './transport';
import { XSRF_COOKIE, XSRF_HEADER, needsXsrfToken, readCookie } from './xsrf';

export type { Method, Params, RawResponse, RequestConfig, Transport, UploadProgress };
export { RequestHeaders };

/** What a caller may pass with a request. */
export interface RequestOptions {
  params?: Params;
  headers?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** 'blob' for files; otherwise the body is JSON when it parses, else text. */
  responseType?: 'json' | 'text' | 'blob';
  /** Upload progress in bytes (the request then goes through XMLHttpRequest). */
  onUploadProgress?: (event: UploadProgress) => void;
  /** Which statuses resolve (default: 2xx); any other rejects with an HttpError. */
  validateStatus?: (status: number) => boolean;
  /**
   * Keeps this request off the full-screen busy overlay, on top of SPEC.md §4's own exceptions
   * (POSTs ending in "dt" or "/log", any "fileUpload" URL). For background reads (polling, live
   * refetches) whose screens show their own skeletons or spinners.
   */
  noOverlay?: boolean;
}

export interface HttpResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  config: RequestConfig;
}

export interface HttpClientOptions {
  /** Replaces the transport (tests). */
  adapter?: Transport;
  busy?: BusyCounter;
  /** Called when a token refresh fails, after all stored data is cleared. */
  reload?: () => void;
  log?: (...args: unknown[]) => void;
}

export interface HttpClient {
  /** The transport in use; tests swap it (`undefined`: fetch). */
  defaults: { adapter: Transport | undefined };
  request<T = unknown>(
    config: RequestOptions & { method?: Method; url: string; data?: unknown },
  ): Promise<HttpResponse<T>>;
  get<T = unknown>(url: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  head<T = unknown>(url: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  delete<T = unknown>(url: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  post<T = unknown>(url: string, data?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
  put<T = unknown>(url: string, data?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
  patch<T = unknown>(url: string, data?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
  /** Starts a token refresh, or joins the one in flight. A failure clears the session and reloads. */
  refreshSession: () => Promise<void>;
}

const isRefreshCall = (config: RequestConfig) => config.url === API.refresh;

/**
 * Bodies sent as they are; anything else (objects, arrays, numbers) is sent as JSON. A string
 * body is sent as it is, as a form would be.
 */
function isRawBody(data: unknown): data is XMLHttpRequestBodyInit {
  return (
    typeof data === 'string' ||
    (typeof FormData !== 'undefined' && data instanceof FormData) ||
    (typeof Blob !== 'undefined' && data instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && data instanceof URLSearchParams) ||
    data instanceof ArrayBuffer ||
    ArrayBuffer.isView(data)
  );
}

/** The request as it goes out: method in lower case, headers case-insensitive, the body encoded. */
function prepare(method: Method, url: string, data: unknown, options: RequestOptions = {}): RequestConfig {
  const { headers, ...rest } = options;
  const config: RequestConfig = { ...rest, method, url, headers: new RequestHeaders(headers) };
  if (!config.headers.has('Accept')) config.headers.set('Accept', 'application/json, text/plain, */*');
  if (data === undefined || data === null) return config;
  if (isRawBody(data)) {
    config.data = data;
  } else {
    config.data = JSON.stringify(data);
    if (!config.headers.has('Content-Type')) config.headers.set('Content-Type', 'application/json');
  }
  return config;
}

/**
 * The token refresh in flight, shared by every client this module creates (and by the hub, through
 * refreshSession): a refresh token is single-use, so two refreshes at once would end the session.
 */
let refreshing: Promise<void> | null = null;

/**
 * The one HTTP client (SPEC.md §7, §8): bearer token, XSRF header, busy counter, a single
 * token refresh shared by every 401, and the error catalogue. It runs on fetch (XMLHttpRequest
 * for uploads that report progress).
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const busy = options.busy ?? appBusy;
  const reload = options.reload ?? (() => window.location.reload());
  const log = options.log ?? console.error;
  const defaults: HttpClient['defaults'] = { adapter: options.adapter };

  const refreshTokens = async (noOverlay: boolean): Promise<void> => {
    const accessToken = getAccessToken();
    const refreshToken = getRefreshToken();
    if (!accessToken || !refreshToken) throw new Error('No session to refresh');
    const { data } = await send<TokenPair>(
      prepare('post', API.refresh, { accessToken, refreshToken }, { noOverlay }),
    );
    setTokens(data);
  };

  /**
   * Starts a refresh, or joins the one in flight. A failure clears the session and reloads. A
   * refresh started for a request kept off the overlay stays off it too.
   */
  const refreshOnce = (noOverlay = false): Promise<void> => {
    refreshing ??= refreshTokens(noOverlay)
      .catch((error: unknown) => {
        clearSession();
        reload();
        throw error;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };

  const fail = (config: RequestConfig, error: HttpError): never => {
    log(`HTTP ${config.method.toUpperCase()} ${config.url} failed:`, error.message, error.cause);
    throw error;
  };

  async function send<T>(config: RequestConfig): Promise<HttpResponse<T>> {
    if (refreshing && !isRefreshCall(config)) await refreshing.catch(() => undefined);
    const token = getAccessToken();
    if (token) config.headers.set('Authorization', `Bearer ${token}`);
    if (needsXsrfToken(config.method, config.url)) {
      const xsrf = readCookie(XSRF_COOKIE);
      if (xsrf) config.headers.set(XSRF_HEADER, xsrf);
    }
    if (!config.noOverlay && countsAsBusy(config.method, config.url)) {
      config._busy = true;
      busy.start();
    }
    let response: RawResponse;
    try {
      response = await (defaults.adapter ?? fetchTransport)(config);
    } catch (cause) {
      if (isAbort(cause, config.signal)) throw new HttpError(MSG_CANCELED, 0, 'CANCELED', {}, { cause });
      return fail(config, toHttpError(undefined, cause));
    } finally {
      if (config._busy) {
        config._busy = false;
        busy.stop();
      }
    }
    if ((config.validateStatus ?? isOkStatus)(response.status)) {
      return { data: response.data as T, status: response.status, headers: response.headers, config };
    }
    if (response.status === 401 && !isRefreshCall(config) && !config._retried && getRefreshToken()) {
      const sentWith = config.headers.get('Authorization');
      const current = getAccessToken();
      // A request sent before a refresh finished only needs the new token, not another refresh.
      const stale = current !== null && sentWith !== `Bearer ${current}`;
      const refreshed =
        stale ||
        (await refreshOnce(config.noOverlay === true).then(
          () => true,
          () => false,
        ));
      if (refreshed)
        return send<T>({ ...config, headers: new RequestHeaders(config.headers), _retried: true });
    }
    return fail(config, toHttpError(response, { status: response.status, data: response.data }));
  }

  const withoutBody =
    (method: Method) =>
    <T>(url: string, options?: RequestOptions) =>
      send<T>(prepare(method, url, undefined, options));
  const withBody =
    (method: Method) =>
    <T>(url: string, data?: unknown, options?: RequestOptions) =>
      send<T>(prepare(method, url, data, options));

  return {
    defaults,
    request: <T>({
      method = 'get',
      url,
      data,
      ...rest
    }: RequestOptions & { method?: Method; url: string; data?: unknown }) =>
      send<T>(prepare(method, url, data, rest)),
    get: withoutBody('get'),
    head: withoutBody('head'),
    delete: withoutBody('delete'),
    post: withBody('post'),
    put: withBody('put'),
    patch: withBody('patch'),
    refreshSession: () => refreshOnce(),
  };
}

/** The app-wide client. Features call the API only through it. */
export const http = createHttpClient();

/** Refreshes the tokens (joining a refresh in flight); the hub uses it after an 'Unauthorized'. */
export const refreshSession = (): Promise<void> => http.refreshSession();

export { HttpError };
