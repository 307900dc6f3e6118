/** Stable error codes shared by the server and the web client. Each maps to one HTTP status. */
export const ErrorCode = {
  VALIDATION: 'VALIDATION',
  UNAUTHORIZED: 'UNAUTHORIZED',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  ACCOUNT_LOCKED: 'ACCOUNT_LOCKED',
  TOKEN_INVALID: 'TOKEN_INVALID',
  TOKEN_REUSED: 'TOKEN_REUSED',
  FORBIDDEN: 'FORBIDDEN',
  XSRF_MISMATCH: 'XSRF_MISMATCH',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  USERNAME_TAKEN: 'USERNAME_TAKEN',
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  RESET_TOKEN_INVALID: 'RESET_TOKEN_INVALID',
  WRONG_PASSWORD: 'WRONG_PASSWORD',
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_BALANCE',
  UNSUPPORTED_MEDIA: 'UNSUPPORTED_MEDIA',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  UNPROCESSABLE: 'UNPROCESSABLE',
  INTERNAL: 'INTERNAL',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorStatus: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  ACCOUNT_LOCKED: 423,
  TOKEN_INVALID: 401,
  TOKEN_REUSED: 401,
  FORBIDDEN: 403,
  XSRF_MISMATCH: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  USERNAME_TAKEN: 409,
  EMAIL_TAKEN: 409,
  RESET_TOKEN_INVALID: 400,
  WRONG_PASSWORD: 400,
  INSUFFICIENT_BALANCE: 402,
  UNSUPPORTED_MEDIA: 415,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  UNPROCESSABLE: 422,
  INTERNAL: 500,
};

/** Body of a domain error. The same message also travels in the Application-Error header. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
}

/** Body of a 400 validation error: field path → messages. */
export interface ValidationErrorBody {
  errors: Record<string, string[]>;
}
