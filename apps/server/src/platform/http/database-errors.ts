import { ErrorCode } from '@wren/contracts';
import { AppError } from '../errors';

/** A PostgreSQL error as node-postgres raises it: a five-character SQLSTATE and a severity. */
interface PgError {
  code: string;
  severity?: string;
  message: string;
}

const isPgError = (err: unknown): err is PgError =>
  typeof err === 'object' &&
  err !== null &&
  typeof (err as PgError).code === 'string' &&
  /^[0-9A-Z]{5}$/.test((err as PgError).code) &&
  ('severity' in err || 'routine' in err);

const messages: Record<string, [ErrorCode, string]> = {
  '22P02': [ErrorCode.VALIDATION, 'A value in the request does not have the expected format'],
  '22007': [ErrorCode.VALIDATION, 'A date or time in the request is not valid'],
  '22008': [ErrorCode.VALIDATION, 'A date or time in the request is out of range'],
  '22001': [ErrorCode.VALIDATION, 'A value in the request is too long'],
  '22003': [ErrorCode.VALIDATION, 'A number in the request is out of range'],
  '22021': [
    ErrorCode.VALIDATION,
    'The request contains a character that is not allowed (a NUL byte or a broken Unicode character)',
  ],
  '22P05': [ErrorCode.VALIDATION, 'The request contains a character that cannot be stored'],
  '23502': [ErrorCode.VALIDATION, 'A required value is missing'],
  '23514': [ErrorCode.VALIDATION, 'A value in the request is not allowed'],
  '23505': [ErrorCode.CONFLICT, 'That already exists'],
  '23P01': [ErrorCode.CONFLICT, 'That conflicts with an existing entry'],
};

/**
 * The client-error view of a PostgreSQL data error (class 22, data exception, and class 23,
 * integrity constraint violation): a 400, 404 or 409 with a message that names no table or column.
 * Null for any other error, which stays a 500. The message is the reply; the SQLSTATE is for the log.
 */
export function databaseInputError(err: unknown): { error: AppError; sqlState: string } | null {
  if (!isPgError(err)) return null;
  const sqlState = err.code;
  if (sqlState === '23503') {
    // A delete or update of a row that others still reference, or a reference to a row that is not there.
    const stillReferenced = /^update or delete on table/i.test(err.message);
    const error = stillReferenced
      ? new AppError(ErrorCode.CONFLICT, 'This item is still in use and cannot be changed or removed')
      : new AppError(ErrorCode.NOT_FOUND, 'Something this request refers to was not found');
    return { error, sqlState };
  }
  const known = messages[sqlState];
  if (known) return { error: new AppError(known[0], known[1]), sqlState };
  if (sqlState.startsWith('22')) {
    return { error: new AppError(ErrorCode.VALIDATION, 'A value in the request is not valid'), sqlState };
  }
  if (sqlState.startsWith('23')) {
    return { error: new AppError(ErrorCode.CONFLICT, 'The request conflicts with existing data'), sqlState };
  }
  return null;
}

/** Node socket errors meaning the database could not be reached or dropped the connection. */
const UNREACHABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/**
 * True when `err` says the database is unreachable or going away (restart, failover, shutdown), not
 * that the request was wrong: SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, cannot
 * connect now), a refused or reset socket, or node-postgres's own "Connection terminated" and pool
 * connect time-out, a missing Unix socket of a stopped server. The client gets a 503 with Retry-After and can try again.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (isPgError(err) && (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code))) return true;
    if (UNREACHABLE_NODE_CODES.has(code)) return true;
    // The embedded cluster's Unix socket is gone (the server stopped): as a refused connection.
    if (code === 'ENOENT' && typeof message === 'string' && message.includes('.s.PGSQL.')) return true;
  }
  return (
    typeof message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
      message,
    )
  );
}
