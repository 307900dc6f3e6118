import { ErrorCode, V1_ERRORS, type V1ErrorCode } from '@wren/contracts';
import { AppError } from '../../platform/errors';

const APP_CODES: Record<number, ErrorCode> = {
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  409: ErrorCode.CONFLICT,
  422: ErrorCode.UNPROCESSABLE,
  429: ErrorCode.RATE_LIMITED,
};

/**
 * An error of the API-key layer. It is an AppError (so a session route that also takes keys
 * answers it in the browser API's shape) carrying the /v1 error code for the /v1 shape.
 */
export class ApiKeyError extends AppError {
  constructor(
    readonly v1Code: V1ErrorCode,
    message: string,
    headers: Record<string, string> = {},
    readonly param?: string,
  ) {
    const status = V1_ERRORS[v1Code][0];
    super(APP_CODES[status] ?? ErrorCode.UNPROCESSABLE, message, { status, headers });
  }
}
