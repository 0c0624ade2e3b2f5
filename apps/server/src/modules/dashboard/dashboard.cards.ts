import {
  DASHBOARD_LIST_SIZE,
  DASHBOARD_SERIES_DAYS,
  formatProtocolId,
  UTILITY_TIME_ZONE,
} from '@protocol/contracts';
import { and, desc, eq, gte, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { DashboardCard } from '../../platform/dashboard.ts';
import { notifications } from '../notifications/notifications.schema.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { visibleDocuments } from '../protocol/api.ts';
import { cases, documents } from '../protocol/protocol.schema.ts';

/*
 * The cards about the modules that exist today (protocol, notifications), one query each. Later
 * modules declare their own cards on their AppModule (platform/dashboard.ts).
 */

/** The instant a utility day (YYYY-MM-DD) starts: its midnight in Athens, whatever the server's zone. */
const dayStart = (day: string): SQL => sql`((${day})::date::timestamp AT TIME ZONE ${UTILITY_TIME_ZONE})`;

/** The day `offset` days after a YYYY-MM-DD day (calendar arithmetic, no time zone involved). */
export function addDays(day: string, offset: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
}

/**
 * Charged to me and not handled: an active document whose current charge is the asker. Handling it
 * means charging it on, returning it (both end the charge: documents.charged_user_id changes with
 * the active charge assignment) or archiving it (state 1). Group charges stay out: they are a
 * department's, not the asker's. The same condition as /document?chargedUserId=eq(me).
 */
const chargedToMe: DashboardCard = {
  key: 'chargedToMe',
  requires: 'protocol:read',
  async load({ db, principal, companyId }) {
    const rows = await db
      .select({
        id: documents.id,
        kind: documents.kind,
        protocolNumber: documents.protocolNumber,
        protocolYear: documents.protocolYear,
        subject: documents.subject,
        protocolDate: documents.protocolDate,
        // The total with the first rows: one query for the count and the list.
        total: sql<number>`count(*) OVER ()::int`,
      })
      .from(documents)
      .where(
        and(
          visibleDocuments(principal, companyId),
          eq(documents.state, 0),
          eq(documents.chargedUserId, principal.userId),
        ),
      )
      .orderBy(desc(documents.id))
      .limit(DASHBOARD_LIST_SIZE);
    return {
      count: rows[0]?.total ?? 0,
      recent: rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        protocolId: formatProtocolId(row.protocolNumber, row.protocolYear),
        subject: row.subject,
        protocolDate: row.protocolDate?.toISOString() ?? null,
      })),
    };
  },
};

/**
 * Registrations per book today and this month, and per day over the last 30 days: one query grouped
 * by book and Athens day over the union of both periods, folded here. Only active documents the
 * asker sees, so each figure is what the /document list filtered the same way shows.
 */
const registrations: DashboardCard = {
  key: 'registrations',
  requires: 'protocol:read',
  async load({ db, principal, companyId, today }) {
    const monthStart = `${today.slice(0, 8)}01`;
    const seriesStart = addDays(today, 1 - DASHBOARD_SERIES_DAYS);
    const from = monthStart < seriesStart ? monthStart : seriesStart;
    // The zone inlined (a constant): as a parameter the GROUP BY would not match the selected expression.
    const day = sql<string>`to_char(${documents.protocolDate} AT TIME ZONE ${sql.raw(`'${UTILITY_TIME_ZONE}'`)}, 'YYYY-MM-DD')`;
    const rows = await db
      .select({
        bookId: protocolBooks.id,
        book: protocolBooks.descr,
        day,
        count: sql<number>`count(*)::int`,
      })
      .from(documents)
      .innerJoin(protocolBooks, eq(protocolBooks.id, documents.protocolBookId))
      .where(
        and(
          visibleDocuments(principal, companyId),
          eq(documents.state, 0),
          isNotNull(documents.protocolDate),
          gte(documents.protocolDate, dayStart(from)),
          lt(documents.protocolDate, dayStart(addDays(today, 1))),
        ),
      )
      .groupBy(protocolBooks.id, protocolBooks.descr, day);
    const books = new Map<number, { bookId: number; book: string; today: number; month: number }>();
    const perDay = new Map<string, number>();
    for (const row of rows) {
      const count = Number(row.count);
      if (row.day >= monthStart) {
        const entry = books.get(row.bookId) ?? { bookId: row.bookId, book: row.book, today: 0, month: 0 };
        entry.month += count;
        if (row.day === today) entry.today += count;
        books.set(row.bookId, entry);
      }
      if (row.day >= seriesStart) perDay.set(row.day, (perDay.get(row.day) ?? 0) + count);
    }
    return {
      books: [...books.values()].sort((a, b) => b.month - a.month || a.book.localeCompare(b.book, 'el')),
      days: Array.from({ length: DASHBOARD_SERIES_DAYS }, (_, i) => {
        const d = addDays(seriesStart, i);
        return { day: d, count: perDay.get(d) ?? 0 };
      }),
    };
  },
};

/** The asker's unread notifications: of the company in use, or of none (personal ones). */
const unreadNotifications: DashboardCard = {
  key: 'unreadNotifications',
  async load({ db, principal, companyId }) {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, principal.userId),
          isNull(notifications.readAt),
          or(eq(notifications.companyId, companyId), isNull(notifications.companyId)),
        ),
      );
    return { count: Number(row?.count ?? 0) };
  },
};

/** The company's newest case folders (every protocol reader sees the case list). */
const recentCases: DashboardCard = {
  key: 'recentCases',
  requires: 'protocol:read',
  async load({ db, companyId }) {
    const rows = await db
      .select({
        id: cases.id,
        code: cases.code,
        name: cases.name,
        closed: cases.closed,
        createdate: cases.createdate,
      })
      .from(cases)
      .where(eq(cases.companyId, companyId))
      .orderBy(desc(cases.id))
      .limit(DASHBOARD_LIST_SIZE);
    return { items: rows.map((row) => ({ ...row, createdate: row.createdate?.toISOString() ?? null })) };
  },
};

export const coreDashboardCards: DashboardCard[] = [
  chargedToMe,
  registrations,
  unreadNotifications,
  recentCases,
];
