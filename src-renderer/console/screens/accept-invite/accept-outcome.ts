// What an answer of POST /api/team/invite/accept means for the acceptance screen. The service's
// texts come from the one error table, so they are matched against it here, not re-typed.
import { ERRORS } from '../../../../src-shared/errors';
import { ApiError, errorText } from '../../api/client';

export type Refusal =
  /** Unknown, used, cancelled or expired (one text for all), or a token that is not one. */
  | { kind: 'invalid' }
  /** Not signed in, and an account with the invited e-mail exists: sign in with it. */
  | { kind: 'sign-in' }
  /** Not signed in, no account for the invited e-mail: name and password create it. */
  | { kind: 'create'; field?: 'name' | 'password' }
  /** Signed in with another e-mail (spec rule 4): log out, log in with the invited one. */
  | { kind: 'other-account'; message: string }
  /** Anything else (team full, already on the team, an owner elsewhere, unreachable): said as it is. */
  | { kind: 'refused'; message: string };

export function refusalOf(e: unknown): Refusal {
  if (!(e instanceof ApiError)) return { kind: 'refused', message: errorText(e) };
  if (e.message === ERRORS.invalid_invitation.error || (e.status === 400 && e.forField('token'))) return { kind: 'invalid' };
  if (e.message === ERRORS.invitation_login_required.error) return { kind: 'sign-in' };
  if (e.message === ERRORS.invitation_other_account.error) return { kind: 'other-account', message: e.message };
  if (e.status === 400 && e.forField('name')) return { kind: 'create', field: 'name' };
  if (e.status === 400 && e.forField('password')) return { kind: 'create', field: 'password' };
  return { kind: 'refused', message: errorText(e) };
}
