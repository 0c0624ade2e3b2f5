import { z } from 'zod';

/**
 * GET /api/dashboard: the home page's cards. Each card is present only when the asker may see what
 * it counts (a card of the protocol needs protocol:read). A later module adds its card here, as one
 * more optional key, and declares how to load it on its server module (`dashboardCards`).
 */

/** How many recent items a list card carries. */
export const DASHBOARD_LIST_SIZE = 5;
/** The days of the registrations chart, today included. */
export const DASHBOARD_SERIES_DAYS = 30;

const dashboardDocumentSchema = z.object({
  id: z.number().int(),
  kind: z.number().int(),
  protocolId: z.string().nullable(),
  subject: z.string(),
  protocolDate: z.string().nullable(),
});

export const dashboardCardsSchema = z.object({
  /** Active documents whose current charge is the asker (not yet charged on, returned, archived). */
  chargedToMe: z.object({ count: z.number().int(), recent: z.array(dashboardDocumentSchema) }).optional(),
  /** Registrations of active documents the asker sees, in the utility's days. */
  registrations: z
    .object({
      books: z.array(
        z.object({
          bookId: z.number().int(),
          book: z.string(),
          today: z.number().int(),
          month: z.number().int(),
        }),
      ),
      /** One entry per day of the last DASHBOARD_SERIES_DAYS days, oldest first, zeros included. */
      days: z.array(z.object({ day: z.string(), count: z.number().int() })),
    })
    .optional(),
  unreadNotifications: z.object({ count: z.number().int() }).optional(),
  /** Finalized documents not yet at AADE (not sent, failed, uncertain), and how many of them failed. */
  mydataPending: z.object({ pending: z.number().int(), failed: z.number().int() }).optional(),
  /**
   * The water service (consumers:read): active consumers, and what the asker's other areas allow —
   * open debts (payments:read), the newest billing run (billing:read; null before the first) and the
   * active consumers still without a reading in the current period (readouts:read).
   */
  waterSummary: z
    .object({
      consumers: z.number().int(),
      openDebts: z.object({ count: z.number().int(), total: z.string() }).optional(),
      lastRun: z
        .object({
          id: z.number().int(),
          year: z.number().int(),
          period: z.number().int(),
          state: z.enum(['queued', 'running', 'done', 'failed']),
          issueDate: z.string(),
        })
        .nullable()
        .optional(),
      readouts: z
        .object({ year: z.number().int(), period: z.number().int(), left: z.number().int() })
        .optional(),
    })
    .optional(),
  /**
   * Finance (finance:read): finalized commercial documents dated this month (credit notes count
   * against the total) and finalized ones of a myDATA series not yet sent.
   */
  financeSummary: z
    .object({
      month: z.object({ count: z.number().int(), total: z.string() }),
      unsent: z.number().int(),
    })
    .optional(),
  recentCases: z
    .object({
      items: z.array(
        z.object({
          id: z.number().int(),
          code: z.string(),
          name: z.string(),
          closed: z.boolean(),
          createdate: z.string().nullable(),
        }),
      ),
    })
    .optional(),
});
export type DashboardCards = z.infer<typeof dashboardCardsSchema>;

export const dashboardSchema = z.object({
  /** The utility's day (Europe/Athens) the figures are for, YYYY-MM-DD. */
  today: z.string(),
  cards: dashboardCardsSchema,
});
export type Dashboard = z.infer<typeof dashboardSchema>;
