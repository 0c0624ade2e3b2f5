import {
  consumptionFlags,
  correctedConsumption,
  LOWER_READING_FLAG,
  type ReadoutRow,
  type ReadoutThresholds,
  readingConsumption,
} from '@protocol/contracts';

export interface RowCheck {
  consumption: number | null;
  basis: string | null;
  /** The flags as the server will set them, plus 'lower' for a reading it will refuse. */
  flags: string[];
}

/** A lower reading nothing explains and no reason given yet: the server would refuse it. */
export const needsReason = (check: RowCheck | null) => check?.flags.includes('lower') ?? false;

/**
 * What the grid shows as the operator types: the same arithmetic and checks the server applies. A
 * lower reading nothing explains is refused ('lower') until a reason (`note`) is given; then it is
 * taken as no consumption and flagged for review.
 */
export function checkRow(
  row: ReadoutRow,
  draft: string,
  thresholds: ReadoutThresholds,
  note = '',
): RowCheck | null {
  if (!/^\d+$/.test(draft) || row.previousReading === null || row.digits === null) return null;
  const reading = Number(draft);
  const meter = {
    digits: row.digits,
    direction: row.direction === -1 ? (-1 as const) : (1 as const),
    previous: row.previousReading,
    swap: row.swap,
  };
  const result = row.previousEstimate
    ? correctedConsumption(meter, reading, row.previousEstimate.consumption)
    : readingConsumption(meter, reading);
  if (result.value === null)
    return note.trim()
      ? { consumption: 0, basis: 'lower', flags: [LOWER_READING_FLAG] }
      : { consumption: null, basis: null, flags: ['lower'] };
  const total = row.previousEstimate ? result.value + row.previousEstimate.consumption : result.value;
  return {
    consumption: result.value,
    basis: result.basis,
    flags: consumptionFlags(total, { average: row.average, active: row.active }, thresholds),
  };
}
