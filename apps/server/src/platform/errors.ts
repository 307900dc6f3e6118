import { ErrorCode, errorStatus } from '@wren/contracts';

/** A domain error with a stable code and a user-facing message. */
export class AppError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = options.status ?? errorStatus[code];
    this.headers = options.headers ?? {};
  }
}

/** A 400 with per-field messages, for rules a schema cannot express (e.g. a phone number). */
export class FieldError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors).flat().join(' '));
  }
}

export const notFound = (what: string) => new AppError(ErrorCode.NOT_FOUND, `${what} not found`);
export const unauthorized = (message = 'Please sign in again') =>
  new AppError(ErrorCode.UNAUTHORIZED, message);
export const forbidden = () =>
  new AppError(ErrorCode.FORBIDDEN, 'You do not have permission to send this request');
