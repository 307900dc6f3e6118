import { ErrorCode, isSafeText } from '@wren/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError, FieldError } from '../errors';

/** Errors busboy raises for a body that is not valid multipart (they carry no status of their own). */
const MULTIPART_PARSE =
  /^(Multipart: |Boundary required|The needle cannot|Unexpected end of multipart data|(Part|Preamble) terminated early)/;

export function isMultipartParseError(err: unknown): boolean {
  return err instanceof Error && !('statusCode' in err) && MULTIPART_PARSE.test(err.message);
}

export interface Upload {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
}

/**
 * Reads the one file of a multipart/form-data upload. Every way it can go wrong is a 4xx: not
 * multipart (415), no boundary or a part cut short (400), a file name with NUL or a broken character
 * (400), no file (400), over `maxBytes` (413).
 */
export async function readUpload(
  req: FastifyRequest,
  opts: { maxBytes: number; notMultipart: string; missing: string },
): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA, opts.notMultipart);
  try {
    const file = await req.file({ limits: { fileSize: opts.maxBytes, files: 1 } });
    if (!file) throw new FieldError({ file: [opts.missing] });
    if (!isSafeText(file.filename) || file.filename.length > 255) {
      file.file.resume(); // drain the part so the request can finish
      throw new FieldError({ file: ['The file name is not valid; rename the file and try again'] });
    }
    const bytes = await file.toBuffer();
    return { fileName: file.filename, mimeType: file.mimetype, bytes };
  } catch (err) {
    if (isMultipartParseError(err)) {
      throw new FieldError({ file: ['The upload is malformed or was cut short; choose the file again'] });
    }
    throw err;
  }
}
