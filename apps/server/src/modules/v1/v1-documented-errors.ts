import { V1_ERRORS, type V1ErrorCode } from '@wren/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addedStatuses } from './openapi';

/** Why an error answer of a /v1 route is not what its OpenAPI operation documents, or null. */
export function undocumentedError(
  method: string,
  path: string,
  documented: readonly (string | number)[],
  status: number,
  code: string,
): string | null {
  const known = V1_ERRORS[code as V1ErrorCode] as (typeof V1_ERRORS)[V1ErrorCode] | undefined;
  if (!known) return `code ${code} is not in the documented error codes (V1_ERRORS)`;
  if (known[0] !== status) return `code ${code} is documented with status ${known[0]}, answered ${status}`;
  const statuses = new Set([...documented.map(String), ...addedStatuses(method, path).map(String)]);
  if (!statuses.has(String(status)))
    return `status ${status} is not among the operation's documented responses`;
  return null;
}

/** The `{error: {type, code}}` of a /v1 error payload, or null (another shape: the app's, or none). */
function codeOf(payload: unknown): string | null {
  if (typeof payload !== 'string' || !payload.startsWith('{"error":')) return null;
  try {
    const body = JSON.parse(payload) as { error?: { type?: unknown; code?: unknown } };
    return typeof body.error?.type === 'string' && typeof body.error.code === 'string'
      ? body.error.code
      : null;
  } catch {
    return null;
  }
}

/**
 * Holds every error answer of the plugin's routes to the OpenAPI document (issue 47 item 3): its code
 * is one of V1_ERRORS with that code's status, and the status is one the operation documents. An
 * answer that is not is logged as an error, so the tests that fail on error-level lines (the fuzz
 * test sends malformed input to every route) and v1-documented-errors.test catch docs that drift.
 * Routes without a schema (the 404 catch-alls, the reference) are not operations and are skipped.
 */
export function checkDocumentedErrors(app: FastifyInstance) {
  app.addHook('onSend', async (req: FastifyRequest, reply, payload) => {
    if (reply.statusCode < 400) return payload;
    const schema = req.routeOptions.schema;
    if (!schema || schema.hide || !schema.response) return payload;
    const code = codeOf(payload);
    if (code === null) return payload;
    const url = req.routeOptions.url ?? req.url;
    const why = undocumentedError(req.method, url, Object.keys(schema.response), reply.statusCode, code);
    if (why)
      req.log.error(
        { method: req.method, route: url, status: reply.statusCode, code },
        `undocumented /v1 error answer: ${why}`,
      );
    return payload;
  });
}
