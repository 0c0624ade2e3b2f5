import {
  consumptionFlags,
  correctedConsumption,
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

/** What the grid shows as the operator types: the same arithmetic and checks the server applies. */
export function checkRow(row: ReadoutRow, draft: string, thresholds: ReadoutThresholds): RowCheck | null {
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
  if (result.value === null) return { consumption: null, basis: null, flags: ['lower'] };
  const total = row.previousEstimate ? result.value + row.previousEstimate.consumption : result.value;
  return {
    consumption: result.value,
    basis: result.basis,
    flags: consumptionFlags(total, { average: row.average, active: row.active }, thresholds),
  };
}
