import { type DashboardCards, hasPermission } from '@protocol/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { DashboardCard } from '../../platform/dashboard.ts';
import { billingRuns } from '../billing/billing.schema.ts';
import { paymentsDebts } from '../payments/payments.schema.ts';
import { readoutReadings, readoutRoutePeriods } from '../readouts/readouts.schema.ts';
import { periodicities } from '../settings/settings-tables.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterMeterInstallations } from '../water/meters.schema.ts';

type WaterSummary = NonNullable<DashboardCards['waterSummary']>;

/** A periodicity row's first month, counted from year 0 (monthsInForce's order). */
const startMonth = sql`(${periodicities.startyear} * 12 + (${periodicities.startperiod} - 1) * ${periodicities.periodicityType})`;

/**
 * The months per period today: the periodicity row with the latest start at or before this month,
 * else the earliest row, else 4 (contracts' monthsInForce and readouts' periodMonths, in SQL).
 */
const monthsToday = (companyId: number, monthIndex: number): SQL => sql`COALESCE(
  (SELECT ${periodicities.periodicityType} FROM ${periodicities}
    WHERE ${periodicities.companyId} = ${companyId} AND ${startMonth} <= ${monthIndex}::int
    ORDER BY ${startMonth} DESC, ${periodicities.id} DESC LIMIT 1),
  (SELECT ${periodicities.periodicityType} FROM ${periodicities}
    WHERE ${periodicities.companyId} = ${companyId} ORDER BY ${startMonth}, ${periodicities.id} LIMIT 1),
  4)::int`;

/**
 * The water service at a glance, in one statement: active consumers; with payments:read the open
 * debts (what is left to pay of each); with billing:read the newest billing run; with readouts:read
 * the active consumers with a meter on their route still unread in the current period (the period
 * of today's month in the company's periodicity, as the readouts screen numbers it).
 */
export const waterSummaryCard: DashboardCard = {
  key: 'waterSummary',
  requires: 'consumers:read',
  async load({ db, principal, companyId, today }) {
    const may = (permission: 'payments:read' | 'billing:read' | 'readouts:read') =>
      hasPermission(principal.scope, permission);
    const year = Number(today.slice(0, 4));
    const month = Number(today.slice(5, 7));
    const months = monthsToday(companyId, year * 12 + month - 1);
    const period = sql`((${month}::int - 1) / ${months} + 1)`;
    const parts: SQL[] = [
      sql`(SELECT count(*) FROM ${waterConsumers}
        WHERE ${waterConsumers.companyId} = ${companyId} AND ${waterConsumers.status} = 1)::int AS consumers`,
    ];
    if (may('payments:read'))
      parts.push(sql`(SELECT json_build_object('count', count(*)::int,
          'total', coalesce(sum(${paymentsDebts.amount} - ${paymentsDebts.paid}), 0)::numeric(14,2)::text)
        FROM ${paymentsDebts} WHERE ${paymentsDebts.companyId} = ${companyId}
          AND ${paymentsDebts.status} = 'open' AND ${paymentsDebts.amount} > ${paymentsDebts.paid}) AS "openDebts"`);
    if (may('billing:read'))
      parts.push(sql`(SELECT json_build_object('id', ${billingRuns.id}, 'year', ${billingRuns.year},
          'period', ${billingRuns.period}, 'state', ${billingRuns.state}, 'issueDate', ${billingRuns.issueDate})
        FROM ${billingRuns} WHERE ${billingRuns.companyId} = ${companyId}
        ORDER BY ${billingRuns.id} DESC LIMIT 1) AS "lastRun"`);
    if (may('readouts:read'))
      parts.push(sql`json_build_object('year', ${year}::int, 'period', ${period}, 'left',
        (SELECT count(*)::int FROM ${waterConsumers} c
          WHERE c.company_id = ${companyId} AND c.status = 1 AND c.route_id IS NOT NULL
            AND EXISTS (SELECT 1 FROM ${waterMeterInstallations} i
              WHERE i.consumer_id = c.id AND i.removed_on IS NULL)
            AND NOT EXISTS (SELECT 1 FROM ${readoutReadings} r
              JOIN ${readoutRoutePeriods} p ON p.id = r.route_period_id
              WHERE r.consumer_id = c.id AND r.superseded_at IS NULL AND p.company_id = ${companyId}
                AND p.route_id = c.route_id AND p.year = ${year}::int AND p.period = ${period}))) AS readouts`);
    const result = await db.execute(sql`SELECT ${sql.join(parts, sql`, `)}`);
    const [row] = (result as unknown as { rows: WaterSummary[] }).rows;
    return {
      consumers: Number(row?.consumers ?? 0),
      ...(may('payments:read') ? { openDebts: row?.openDebts } : {}),
      ...(may('billing:read') ? { lastRun: row?.lastRun ?? null } : {}),
      ...(may('readouts:read') ? { readouts: row?.readouts } : {}),
    };
  },
};
