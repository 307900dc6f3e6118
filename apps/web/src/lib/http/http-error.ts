export const MSG_FORBIDDEN = 'You do not have permission to send this request';
export const MSG_UNREACHABLE = 'Unable to contact remote server, check your internet connection';
export const MSG_CANCELED = 'The request was canceled';

/** What came back from the server: enough to build the error catalogue's message. */
export interface ErrorResponse {
  status: number;
  headers: { get(name: string): string | null | undefined };
  data: unknown;
}

/** The error every HTTP call rejects with: a user-facing message (SPEC.md §8) plus details. */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    message: string,
    /** HTTP status; 0 when there was no response. */
    readonly status: number,
    /** Stable error code from the body (`{ code }`), when the server sent one. */
    readonly code: string | undefined,
    /** Per-field messages of a 400 (`{ errors: { field: [msg] } }`). */
    readonly fieldErrors: Record<string, string[]>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function asMessages(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(asMessages);
  return [];
}

/** The `errors` object of a body as field → non-empty messages. */
export function fieldErrorsOf(body: unknown): Record<string, string[]> {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object') return {};
  const result: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(errors)) {
    const messages = asMessages(value);
    if (messages.length) result[field] = messages;
  }
  return result;
}

function rawBody(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (typeof Blob !== 'undefined' && body instanceof Blob) return '';
  return JSON.stringify(body);
}

/**
 * The server percent-encodes '%' and everything outside visible ASCII in Application-Error; a
 * value that is not valid percent-encoding (another server) is shown as it came.
 */
export function decodeHeader(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The error catalogue of SPEC.md §8, in its order of precedence. No response: `undefined`. */
export function errorMessage(response: ErrorResponse | undefined): string {
  const status = response?.status ?? 0;
  if (status === 403) return MSG_FORBIDDEN;
  const header = response?.headers.get('application-error');
  if (typeof header === 'string' && header) return decodeHeader(header);
  if (!response || status === 0) return MSG_UNREACHABLE;
  const joined = Object.values(fieldErrorsOf(response.data))
    .flat()
    .map((message) => `${message}\n`)
    .join('');
  if (joined) return joined;
  return rawBody(response.data) || `Request failed with status ${status}`;
}

/** The HttpError for a failed call: its response, or `undefined` when none came (`cause` says why). */
export function toHttpError(response: ErrorResponse | undefined, cause?: unknown): HttpError {
  const body = response?.data as { code?: unknown } | undefined;
  const code = body && typeof body === 'object' && typeof body.code === 'string' ? body.code : undefined;
  return new HttpError(errorMessage(response), response?.status ?? 0, code, fieldErrorsOf(response?.data), {
    cause,
  });
}

/** A user-facing message for anything a call may throw. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
