import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@wren/contracts';
import { AppError } from '../errors';

/** A `charset` parameter of a Content-Type header, lower-cased, without quotes. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
const UTF8 = new Set(['utf-8', 'utf8']);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** A body that is not valid UTF-8: a 400 (`body_invalid` on /v1, a `body` field error in the app). */
export class InvalidUtf8Error extends SyntaxError {
  readonly statusCode = 400;
  constructor() {
    super('The body is not valid UTF-8; send JSON encoded as UTF-8');
  }
}

/**
 * The one JSON body parser of the server (browser API and /v1 alike). JSON is UTF-8 (RFC 8259 §8.1):
 * a body declared in another charset is a 415, and bytes that are not UTF-8 are a 400, instead of
 * being read as U+FFFD replacement characters into a message text that is then sent and charged.
 * `text/plain` has no parser (Fastify's default one hands the raw string to a route that wants an
 * object): it is a 415 like any other type that is not JSON. Prototype-poisoning keys are refused as
 * by Fastify's own parser, which this one calls once the text is decoded.
 */
export function registerJsonBody(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && !UTF8.has(charset)) {
      done(
        new AppError(
          ErrorCode.UNSUPPORTED_MEDIA,
          `JSON must be UTF-8; charset=${charset.slice(0, 40)} is not accepted`,
          { status: 415 },
        ),
        undefined,
      );
      return;
    }
    let text: string;
    try {
      text = strictUtf8.decode(body);
    } catch {
      done(new InvalidUtf8Error(), undefined);
      return;
    }
    void parseJson(req, text, done);
  });
}
