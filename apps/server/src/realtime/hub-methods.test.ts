import { describe, expect, it } from 'vitest';
import type { DashboardService } from '../modules/dashboard/dashboard.service';
import { AppError, FieldError } from '../platform/errors';
import { createLogger } from '../platform/logger';
import { hubHandlers, toHubFailure } from './hub-methods';

const logger = createLogger('silent');
const caller = { accountId: 'a', userId: 'u' };

describe('hub methods without the directory services', () => {
  const { requests, commands } = hubHandlers({
    dashboard: {} as DashboardService,
    directory: { senderIds: null, groups: null, templates: null },
  });

  it('lists nothing', async () => {
    expect(await requests.GetSenderIdList(caller, [])).toEqual([]);
    expect(await requests.GetSmsTemplates(caller, [])).toEqual([]);
    expect(await requests.GetGroupList(caller, [])).toEqual([]);
  });

  it('fails the commands with NOT_AVAILABLE', async () => {
    for (const [method, args] of [
      ['CreateSenderId', [{ value: 'ACME' }]],
      ['SaveSmsTemplate', ['name', 'text']],
    ] as const) {
      const err = await commands[method](caller, [...args]).catch((e: unknown) => e);
      expect(toHubFailure(err, logger, method)).toEqual({
        code: 'NOT_AVAILABLE',
        message: expect.any(String),
      });
    }
  });
});

describe('toHubFailure', () => {
  it('maps domain, validation and unexpected errors', () => {
    expect(toHubFailure(new AppError('CONFLICT', 'Taken'), logger, 'm')).toEqual({
      code: 'CONFLICT',
      message: 'Taken',
    });
    expect(toHubFailure(new FieldError({ name: ['Required'] }), logger, 'm')).toEqual({
      code: 'VALIDATION',
      message: 'Required',
      errors: { name: ['Required'] },
    });
    expect(toHubFailure(new Error('secret detail'), logger, 'm')).toEqual({
      code: 'INTERNAL',
      message: 'Something went wrong on our side. Please try again.',
    });
  });
});
