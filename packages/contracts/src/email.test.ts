import { describe, expect, it } from 'vitest';
import { emailSchema } from './auth';

describe('email', () => {
  it('an empty email is required, not invalid (issue #15 defect 11)', () => {
    expect(emailSchema.safeParse('  ').error?.issues[0]?.message).toBe('Email is required');
    expect(emailSchema.safeParse('nope').error?.issues[0]?.message).toBe('Enter a valid email address');
    expect(emailSchema.parse(' Ada@Example.com ')).toBe('ada@example.com');
  });
});
