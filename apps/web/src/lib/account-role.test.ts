import { describe, expect, it } from 'vitest';
import { roleOfToken } from './account-role';

const token = (claims: object) =>
  `e30.${btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.sig`;

describe('roleOfToken (issue 39)', () => {
  it("reads the member's role from the access token's arl claim", () => {
    expect(roleOfToken(token({ sub: 'u', arl: 'sender' }))).toBe('sender');
    expect(roleOfToken(token({ sub: 'u', arl: 'owner', name: 'ü?>' }))).toBe('owner');
  });

  it('knows no role without a token, without the claim, or with an unknown one', () => {
    expect(roleOfToken(null)).toBeUndefined();
    expect(roleOfToken('not-a-token')).toBeUndefined();
    expect(roleOfToken(token({ sub: 'u' }))).toBeUndefined();
    expect(roleOfToken(token({ arl: 'superuser' }))).toBeUndefined();
    expect(roleOfToken('e30.!!!.sig')).toBeUndefined();
  });
});
