import { ErrorCode, type ErrorBody, type ValidationErrorBody } from '@wren/contracts';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, FieldError } from '../errors';
import { databaseInputError, isDatabaseUnavailable } from './database-errors';
import { isMultipartParseError } from './upload';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Header values must be one line of visible ASCII: '%' and every character outside it are
 * percent-encoded as UTF-8 (the client decodes with decodeURIComponent), so plain messages stay
 * readable and "VIP customers 🌟" survives.
 */
export const headerSafe = (s: string) =>
  Array.from(s.replace(LONE_SURROGATE, '\uFFFD'))
    .slice(0, 500)
    .join('')
    .replace(/[^\x20-\x24\x26-\x7e]+/gu, (run) => encodeURIComponent(run));

export function sendAppError(reply: FastifyReply, err: AppError) {
  const body: ErrorBody = { code: err.code, message: err.message };
  return reply
    .status(err.status)
    .headers(err.headers)
    .header('Application-Error', headerSafe(err.message))
    .send(body);
}

function sendValidation(reply: FastifyReply, errors: Record<string, string[]>) {
  const body: ValidationErrorBody = { errors };
  return reply.status(400).send(body);
}

const fastifyCodes: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [ErrorCode.PAYLOAD_TOO_LARGE, 'The request is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [ErrorCode.UNSUPPORTED_MEDIA, 'Unsupported content type'],
  FST_REQ_FILE_TOO_LARGE: [ErrorCode.PAYLOAD_TOO_LARGE, 'The file is too large'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [ErrorCode.UNSUPPORTED_MEDIA, 'Expected a multipart/form-data upload'],
};

/**
 * The one place errors become HTTP responses, in exactly the shapes the web client reads (SPEC.md §8):
 * validation → 400 `{ errors }`; domain errors → status + Application-Error header + `{ code, message }`.
 * Never a stack trace.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) return sendAppError(reply, err);
    if (err instanceof FieldError) return sendValidation(reply, err.errors);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: Record<string, string[]> = {};
      for (const v of err.validation) {
        const key = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || err.validationContext || 'body';
        (errors[key] ??= []).push(v.message ?? 'Invalid value');
      }
      return sendValidation(reply, errors);
    }
    const mapped = err.code ? fastifyCodes[err.code] : undefined;
    if (mapped) return sendAppError(reply, new AppError(mapped[0], mapped[1]));
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      if (err.code?.startsWith('FST_ERR_CTP') || err instanceof SyntaxError) {
        return sendValidation(reply, { body: [err.message] });
      }
      return sendAppError(
        reply,
        new AppError(ErrorCode.UNPROCESSABLE, err.message, { status: err.statusCode }),
      );
    }
    // PostgreSQL refusing a value (bad format, out of range, NUL, a constraint) is the client's
    // input, not our failure: a 4xx, logged below error level.
    const db = databaseInputError(err);
    if (db) {
      req.log.info({ sqlState: db.sqlState, reason: err.message }, 'database refused the request input');
      return sendAppError(reply, db.error);
    }
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      return sendAppError(
        reply,
        new AppError(
          ErrorCode.UNAVAILABLE,
          'The service is briefly unavailable. Please try again in a moment.',
          {
            headers: { 'Retry-After': '5' },
          },
        ),
      );
    }
    if (isMultipartParseError(err)) {
      return sendValidation(reply, {
        file: ['The upload is malformed or was cut short; choose the file again'],
      });
    }
    req.log.error({ err }, 'unhandled error');
    return sendAppError(
      reply,
      new AppError(ErrorCode.INTERNAL, 'Something went wrong on our side. Please try again.'),
    );
  });

  app.setNotFoundHandler((req, reply) =>
    sendAppError(
      reply,
      new AppError(ErrorCode.NOT_FOUND, `No route for ${req.method} ${req.url.split('?')[0]}`),
    ),
  );
}
