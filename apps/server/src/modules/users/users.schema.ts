import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';

/** Spec §3 User (operator). */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash'),
    firstname: text('firstname').notNull().default(''),
    lastname: text('lastname').notNull().default(''),
    email: text('email'),
    active: boolean('active').notNull().default(true),
    superAdmin: boolean('super_admin').notNull().default(false),
    kind: smallint('kind').notNull().default(2),
    // Greek-normalised copies (no accents, no case, ς→σ) that lists filter and sort on, kept by
    // PostgreSQL itself: computing norm_text per row at query time costs seconds on large lists.
    usernameNorm: text('username_norm').generatedAlwaysAs(sql`norm_text(username)`),
    firstnameNorm: text('firstname_norm').generatedAlwaysAs(sql`norm_text(firstname)`),
    lastnameNorm: text('lastname_norm').generatedAlwaysAs(sql`norm_text(lastname)`),
    emailNorm: text('email_norm').generatedAlwaysAs(sql`norm_text(email)`),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    index('users_email_lower_idx').on(sql`lower(${t.email})`),
  ],
);

/** A signed-in session; the JWT names it, so logout and deactivation revoke the token. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    sso: boolean('sso').notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Failed sign-ins, counted per user name and per address to rate-limit login across nodes. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    username: text('username').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('login_failures_username_idx').on(t.username, t.at),
    index('login_failures_ip_idx').on(t.ip, t.at),
  ],
);
