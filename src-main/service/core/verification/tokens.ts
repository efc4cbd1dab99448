// The signed token a passing verification returns (spec: "a signed token, validated by
// /api/validate"). A JWT (HS256, jose) keyed by a key derived from the install secret, carrying
// only ids and the outcome: the verification id, the organisation, the environment, the status
// and confidence, an expiry. A customer's backend validates it with its secret key, which binds
// it to that organisation and environment: tokens of another organisation or environment, late,
// or altered by one bit are `valid: false`.
import type * as Jose from 'jose';
import type { Environment } from '../../../../src-shared/catalog';
import type { Clock } from '../clock';
import type { InstallSecret } from '../install-secret';

/** How long a token may be validated: long enough for a client to post it to its backend. */
export const TOKEN_TTL_S = 15 * 60;
const ISSUER = 'compliance-console';
const AUDIENCE = 'verification-token';

export interface TokenClaims {
  verificationId: string;
  orgId: number;
  env: Environment;
  product: string;
  status: string;
  confidence: number | null;
}

export type TokenCheck =
  | { valid: true; claims: TokenClaims }
  | { valid: false; reason: 'invalid' | 'expired' };

/** jose, loaded when a token is first signed or checked: ~0.06 s of every start saved (issue 38). */
let joseLoading: Promise<typeof Jose> | undefined;
const jose = () => (joseLoading ??= import('jose'));

export function createVerificationTokens(secret: InstallSecret, clock: Clock) {
  const key = () => new Uint8Array(secret.derive('verification-token/v1'));
  const nowS = () => Math.floor(clock.now() / 1000);
  return {
    ttlSeconds: TOKEN_TTL_S,
    async sign(c: TokenClaims): Promise<string> {
      const { SignJWT } = await jose();
      const iat = nowS();
      return new SignJWT({ org: c.orgId, env: c.env, product: c.product, status: c.status, confidence: c.confidence })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(c.verificationId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + TOKEN_TTL_S)
        .sign(key());
    },
    /** Checks a token for the organisation and environment of the caller's secret key. */
    async check(token: string, orgId: number, env: Environment): Promise<TokenCheck> {
      if (token.length > 4096) return { valid: false, reason: 'invalid' };
      const { errors, jwtVerify } = await jose();
      try {
        const { payload } = await jwtVerify(token, key(), {
          algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE, currentDate: new Date(clock.now()), clockTolerance: 0,
        });
        if (payload.org !== orgId || payload.env !== env || typeof payload.sub !== 'string') return { valid: false, reason: 'invalid' };
        return {
          valid: true,
          claims: {
            verificationId: payload.sub, orgId, env,
            product: String(payload.product), status: String(payload.status),
            confidence: typeof payload.confidence === 'number' ? payload.confidence : null,
          },
        };
      } catch (e) {
        return { valid: false, reason: e instanceof errors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
}
export type VerificationTokens = ReturnType<typeof createVerificationTokens>;
