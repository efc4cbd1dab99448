// Session-authenticated account APIs that the spec leaves open (first run, login, keys,
// plan and credits). Shapes are recorded in docs/decisions.md; the console uses these types.
import { z } from 'zod';
import { ENVIRONMENTS, PLANS, PRODUCTS, ROLES } from '../catalog';

export const Email = z.string().trim().toLowerCase().max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
export const Password = z.string().min(10).max(256);

export const SetupRequest = z.object({
  organization: z.string().trim().min(1).max(120),
  name: z.string().trim().min(1).max(120),
  email: Email,
  password: Password,
  /** The plan the organisation bought; Free when not given (there is no payment system here). */
  plan: z.enum(PLANS).optional(),
});
export type SetupRequest = z.infer<typeof SetupRequest>;

export const LoginRequest = z.object({
  email: Email,
  password: z.string().min(1).max(256),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenLoginRequest = z.object({ token: z.string().min(16).max(256) });
export type TokenLoginRequest = z.infer<typeof TokenLoginRequest>;

export const User = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  billing: z.boolean(),
});
export type User = z.infer<typeof User>;

export const Organization = z.object({
  id: z.number().int(),
  name: z.string(),
  plan: z.enum(PLANS),
});
export type Organization = z.infer<typeof Organization>;

export const Session = z.object({ user: User, organization: Organization });
export type Session = z.infer<typeof Session>;

/** A member offered on the desktop's "Who is signing in?" screen. */
export const DesktopMember = z.object({ id: z.number().int(), name: z.string(), email: z.string(), role: z.enum(ROLES) });
export type DesktopMember = z.infer<typeof DesktopMember>;

/**
 * The desktop shell's token, with several people on the team: no one is signed in yet; the window
 * (holding a short-lived `cc_desktop` cookie) shows the members and the chosen one gives a password.
 */
export const DesktopChoice = z.object({ choose_member: z.literal(true), members: z.array(DesktopMember) });
export type DesktopChoice = z.infer<typeof DesktopChoice>;

/** `POST /api/auth/token`: signed in (the only member), or the choice of member. */
export const TokenLoginResponse = z.union([Session, DesktopChoice]);
export type TokenLoginResponse = z.infer<typeof TokenLoginResponse>;

export const DesktopLoginRequest = z.object({ user_id: z.number().int().positive(), password: z.string().min(1).max(256) });
export type DesktopLoginRequest = z.infer<typeof DesktopLoginRequest>;

export const SetupStatus = z.object({ needs_setup: z.boolean(), version: z.string() });
export type SetupStatus = z.infer<typeof SetupStatus>;

export const CreateKeyRequest = z.object({
  name: z.string().trim().min(1).max(80).default('API key'),
  env: z.enum(ENVIRONMENTS),
  scopes: z.array(z.enum(PRODUCTS)).min(1).max(4),
  demo: z.boolean().default(false),
});
export type CreateKeyRequest = z.input<typeof CreateKeyRequest>;

export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  /** First characters of the key, for recognising it; the full key is shown once. */
  prefix: z.string(),
  env: z.enum(ENVIRONMENTS),
  scopes: z.array(z.enum(PRODUCTS)),
  demo: z.boolean(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  trial: z
    .object({ active: z.boolean(), ends_at: z.string(), verifications_used: z.number().int(), verifications_limit: z.number().int() })
    .nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const CreatedKey = z.object({ key: ApiKey, api_key: z.string(), secret: z.string() });
export type CreatedKey = z.infer<typeof CreatedKey>;

export const KeyList = z.object({ keys: z.array(ApiKey) });
export type KeyList = z.infer<typeof KeyList>;

export const RevokedKey = z.object({ key: ApiKey });
export type RevokedKey = z.infer<typeof RevokedKey>;

export const KeyListQuery = z.object({ env: z.enum(ENVIRONMENTS).optional() });

export const LedgerEntry = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  kind: z.enum(['grant', 'charge', 'adjustment']),
  product: z.string().nullable(),
  verification_id: z.string().nullable(),
  env: z.enum(ENVIRONMENTS).nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const Account = z.object({
  organization: Organization,
  plan: z.object({
    id: z.enum(PLANS),
    label: z.string(),
    compliance: z.boolean(),
    team_size: z.number().int().nullable(),
    verification_rps: z.number(),
    verification_burst: z.number().int(),
    read_rps: z.number(),
    read_burst: z.number().int(),
  }),
  credits: z.object({ balance: z.number().int() }),
});
export type Account = z.infer<typeof Account>;

/** Owner only: records the plan the organisation bought (see docs/decisions.md). */
export const ChangePlanRequest = z.object({ plan: z.enum(PLANS) });
export type ChangePlanRequest = z.infer<typeof ChangePlanRequest>;

export const LedgerPage = z.object({
  entries: z.array(LedgerEntry),
  balance: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});
export type LedgerPage = z.infer<typeof LedgerPage>;

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});
