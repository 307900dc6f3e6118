import { scopesOfRole, type AccountRole, type ApiScope } from '@wren/contracts';
import { FieldError } from '../../platform/errors';

/**
 * A key acts with its scopes; a member cannot give a key more than their role allows (issue 39):
 * each scope stands for a permission (contracts' SCOPE_PERMISSION) the creator's role must have.
 * Checked when a key is created and when its scopes change. `null` is an API key's own request
 * (never reaches the key routes, which need a session).
 */
export function assertScopesWithinRole(role: AccountRole | null, scopes: readonly ApiScope[]): void {
  const allowed = role ? scopesOfRole(role) : [];
  const beyond = scopes.filter((s) => !allowed.includes(s));
  if (beyond.length) {
    throw new FieldError({
      scopes: [`Your role cannot give a key these scopes: ${beyond.join(', ')}`],
    });
  }
}
