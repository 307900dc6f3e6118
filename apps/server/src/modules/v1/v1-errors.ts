import { ErrorCode, V1_ERRORS, type V1Error, type V1ErrorCode } from '@wren/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, FieldError } from '../../platform/errors';
import { databaseInputError, isDatabaseUnavailable } from '../../platform/http/database-errors';
import { InvalidUtf8Error } from '../../platform/http/json-body';
import { ApiKeyError } from '../api-keys/api-key-error';

/** An error raised by the /v1 layer itself (idempotency, parameters). */
export class V1RequestError extends Error {
  constructor(
    readonly code: V1ErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export interface V1ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: V1Error;
}

const fromAppCode: Partial<Record<ErrorCode, V1ErrorCode>> = {
  NOT_FOUND: 'not_found',
  CONFLICT: 'conflict',
  INSUFFICIENT_BALANCE: 'insufficient_balance',
  ACCOUNT_LOCKED: 'account_locked',
  SENDER_ID_NOT_APPROVED: 'sender_id_not_approved',
  UNPROCESSABLE: 'unprocessable',
  PAYLOAD_TOO_LARGE: 'body_too_large',
  UNSUPPORTED_MEDIA: 'unsupported_media_type',
  RATE_LIMITED: 'rate_limited',
  UNAUTHORIZED: 'key_invalid',
  TOKEN_INVALID: 'key_invalid',
  FORBIDDEN: 'scope_missing',
  VALIDATION: 'parameter_invalid',
  INTERNAL: 'internal_error',
};

/** The message core's field names, as /v1 names them. */
const PARAM_NAMES: Record<string, string> = { recipients: 'to', senderId: 'from' };
const paramOf = (key: string) => {
  const [head, ...rest] = key.split('.');
  return [PARAM_NAMES[head] ?? head, ...rest].join('.');
};

function make(
  code: V1ErrorCode,
  message: string,
  param?: string,
  status?: number,
  headers = {},
): V1ErrorResponse {
  const [defaultStatus, type] = V1_ERRORS[code];
  return {
    status: status ?? defaultStatus,
    headers,
    body: { error: { type, code, message, ...(param !== undefined && { param }) } },
  };
}

/** Any error as the one /v1 error shape `{ error: { type, code, message, param? } }`; null: a 5xx to log. */
export function toV1Error(err: unknown, bodyLimit = 1024 * 1024): V1ErrorResponse | null {
  if (err instanceof ApiKeyError) return make(err.v1Code, err.message, err.param, err.status, err.headers);
  if (err instanceof V1RequestError) return make(err.code, err.message, err.param);
  if (err instanceof FieldError) {
    const [key, messages] = Object.entries(err.errors)[0] ?? ['body', ['Invalid value']];
    return make('parameter_invalid', messages.join(' '), paramOf(key));
  }
  // The database restarting or unreachable: the 503 with Retry-After the browser API also answers.
  if (isDatabaseUnavailable(err) || (err instanceof AppError && err.code === ErrorCode.UNAVAILABLE)) {
    return make(
      'service_unavailable',
      'The service is briefly unavailable. Retry in a moment with the same Idempotency-Key.',
      undefined,
      503,
      { 'Retry-After': '5' },
    );
  }
  if (err instanceof AppError) {
    if (err.status >= 500) return null;
    // A locked account is 423 on the browser API (its sign-in) and 403 on /v1, as documented there.
    const status = err.code === ErrorCode.ACCOUNT_LOCKED ? undefined : err.status;
    return make(fromAppCode[err.code] ?? 'unprocessable', err.message, undefined, status, err.headers);
  }
  const e = err as FastifyError;
  if (hasZodFastifySchemaValidationErrors(e)) {
    const v = e.validation[0];
    const path = v?.instancePath.replace(/^\//, '').replace(/\//g, '.');
    // A field the operation does not have (a misspelt `scheduleAt` must not send now): named as param.
    const unknown =
      v?.keyword === 'unrecognized_keys' ? (v.params as { keys?: string[] }).keys?.[0] : undefined;
    if (unknown !== undefined) {
      const name = paramOf(path ? `${path}.${unknown}` : unknown);
      return make('parameter_invalid', `${name}: not a field of this request`, name);
    }
    const where = e.validationContext === 'querystring' ? 'query' : e.validationContext;
    const param = path || (where === 'body' ? undefined : where);
    return make(
      path ? 'parameter_invalid' : 'body_invalid',
      path ? `${paramOf(path)}: ${v?.message ?? 'Invalid value'}` : (v?.message ?? 'The body is not valid'),
      param ? paramOf(param) : undefined,
    );
  }
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return make('body_too_large', `The request body is larger than ${bodyLimit / (1024 * 1024)} MB`);
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return make('unsupported_media_type', 'Send JSON with Content-Type: application/json');
  }
  if (err instanceof InvalidUtf8Error) return make('body_invalid', err.message);
  if (err instanceof SyntaxError || e.code?.startsWith('FST_ERR_CTP')) {
    return make('body_invalid', `The body is not valid JSON: ${e.message}`);
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return make('parameter_invalid', e.message, undefined, e.statusCode === 404 ? 400 : e.statusCode);
  }
  const db = databaseInputError(err);
  if (db) return make('parameter_invalid', db.error.message);
  return null;
}

export const internalError = () =>
  make('internal_error', 'Something went wrong on our side. Retry with the same Idempotency-Key.');
export const routeNotFound = (method: string, url: string) =>
  make('not_found', `No route for ${method} ${url.split('?')[0]}`);

/** The /v1 error code each answered request ended with (for its key's usage report). */
export const errorCodes = new WeakMap<FastifyRequest, string>();

/** Answers `err` in /v1's one error shape (a 5xx is logged): the error handler of every /v1 route. */
export function replyV1Error(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const mapped = toV1Error(err, req.routeOptions.bodyLimit);
  if (!mapped) req.log.error({ err }, 'unhandled /v1 error');
  const res = mapped ?? internalError();
  errorCodes.set(req, res.body.error.code);
  return reply.status(res.status).headers(res.headers).send(res.body);
}
