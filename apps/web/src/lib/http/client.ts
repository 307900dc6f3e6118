import axios, {
  AxiosError,
  type AxiosAdapter,
  type AxiosInstance,
  type InternalAxiosRequestConfig,
} from 'axios';
import { API, type TokenPair } from '@wren/contracts';
import { busy as appBusy, countsAsBusy, type BusyCounter } from '../busy';
import { clearSession, getAccessToken, getRefreshToken, setTokens } from '../session';
import { HttpError, toHttpError } from './http-error';
import { XSRF_COOKIE, XSRF_HEADER, needsXsrfToken, readCookie } from './xsrf';

declare module 'axios' {
  interface AxiosRequestConfig {
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
}

export interface HttpClientOptions {
  /** Replaces the transport (tests). */
  adapter?: AxiosAdapter;
  busy?: BusyCounter;
  /** Called when a token refresh fails, after all stored data is cleared. */
  reload?: () => void;
  log?: (...args: unknown[]) => void;
}

const isRefreshCall = (config: InternalAxiosRequestConfig) => config.url === API.refresh;

/**
 * The token refresh in flight, shared by every client this module creates (and by the hub, through
 * refreshSession): a refresh token is single-use, so two refreshes at once would end the session.
 */
let refreshing: Promise<void> | null = null;

export type HttpClient = AxiosInstance & {
  /** Starts a token refresh, or joins the one in flight. A failure clears the session and reloads. */
  refreshSession: () => Promise<void>;
};

/**
 * The one HTTP client (SPEC.md §7, §8): bearer token, XSRF header, busy counter, a single
 * token refresh shared by every 401, and the error catalogue.
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const busy = options.busy ?? appBusy;
  const reload = options.reload ?? (() => window.location.reload());
  const log = options.log ?? console.error;
  // withXSRFToken: false turns off axios's own XSRF handling (it would also tag GETs); the
  // request interceptor below applies the SPEC rule: non-GET/HEAD requests to relative URLs.
  const client = axios.create({ adapter: options.adapter, withXSRFToken: false });

  const refreshTokens = async (noOverlay: boolean): Promise<void> => {
    const accessToken = getAccessToken();
    const refreshToken = getRefreshToken();
    if (!accessToken || !refreshToken) throw new Error('No session to refresh');
    const { data } = await client.post<TokenPair>(API.refresh, { accessToken, refreshToken }, { noOverlay });
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

  client.interceptors.request.use(async (config) => {
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
    return config;
  });

  const settleBusy = (config: InternalAxiosRequestConfig | undefined) => {
    if (config?._busy) {
      config._busy = false;
      busy.stop();
    }
  };

  client.interceptors.response.use(
    (response) => {
      settleBusy(response.config);
      return response;
    },
    async (error: unknown) => {
      if (!(error instanceof AxiosError)) throw error;
      const config = error.config;
      settleBusy(config);
      if (error.response?.status === 401 && config && !isRefreshCall(config) && !config._retried) {
        if (getRefreshToken()) {
          const sentWith = config.headers.get('Authorization');
          const current = getAccessToken();
          // A request sent before a refresh finished only needs the new token, not another refresh.
          const stale = current !== null && sentWith !== `Bearer ${current}`;
          let refreshed = stale;
          if (!stale)
            refreshed = await refreshOnce(config.noOverlay === true).then(
              () => true,
              () => false,
            );
          if (refreshed) return client.request({ ...config, _retried: true });
        }
      }
      const httpError = toHttpError(error);
      log(
        `HTTP ${config?.method?.toUpperCase() ?? ''} ${config?.url ?? ''} failed:`,
        httpError.message,
        error,
      );
      throw httpError;
    },
  );

  return Object.assign(client, { refreshSession: () => refreshOnce() });
}

/** The app-wide client. Features call the API only through it. */
export const http = createHttpClient();

/** Refreshes the tokens (joining a refresh in flight); the hub uses it after an 'Unauthorized'. */
export const refreshSession = (): Promise<void> => http.refreshSession();

export { HttpError };
