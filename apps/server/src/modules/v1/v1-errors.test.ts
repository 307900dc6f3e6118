import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { ErrorCode } from '@wren/contracts';
import { toV1Error } from './v1-errors';

/**
 * Found by the fault run (issue 44): during a PostgreSQL restart, /v1 answered 500 internal_error
 * while the browser API answered 503 with Retry-After. Both now say "briefly unavailable".
 */
describe('/v1 errors while the database is unavailable', () => {
  const cases: [string, unknown][] = [
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    [
      'an administrator shutdown',
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
        severity: 'FATAL',
      }),
    ],
    ['the pool timing out', new Error('timeout exceeded when trying to connect')],
    ['an UNAVAILABLE app error', new AppError(ErrorCode.UNAVAILABLE, 'busy')],
  ];
  it.each(cases)('%s is a 503 service_unavailable with Retry-After', (_name, err) => {
    const res = toV1Error(err);
    expect(res?.status).toBe(503);
    expect(res?.headers['Retry-After']).toBe('5');
    expect(res?.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
  });

  it('a bug is still a 500 to log', () => {
    expect(toV1Error(new TypeError('x is undefined'))).toBeNull();
  });
});
