import { meterKinds } from '@protocol/contracts';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import { periodicities } from '../settings/settings-tables.schema.ts';
import {
  waterAreas,
  waterBuildings,
  waterConnectionTypes,
  waterEncodingCodes,
  waterInvoicePolicies,
  waterMeterTypes,
  waterPipeDiameters,
  waterPropertyUsages,
  waterRoutes,
  waterSectors,
  waterSewerageIndicators,
  waterSpecialRegulations,
} from './parametrics.schema.ts';

type Coded = [code: string, description: string];
const user = { createuser: SYSTEM_USER };

/** The parametric tables of a small ΔΕΥΑ (a town and three villages) for the demo company. */
export async function seedWaterParametrics(tx: Tx, companyId: number): Promise<void> {
  const coded = (rows: Coded[]) =>
    rows.map(([code, description]) => ({ companyId, code, description, ...user }));
  const sectors = await tx
    .insert(waterSectors)
    .values(
      coded([
        ['01', 'Αγία Ελένη – Κέντρο'],
        ['02', 'Αγία Ελένη – Βόρειος τομέας'],
        ['03', 'Νέα Ζίχνη'],
        ['04', 'Άνω Πορόια'],
      ]),
    )
    .returning({ id: waterSectors.id, code: waterSectors.code });
  const sectorId = (code: string) => sectors.find((s) => s.code === code)?.id ?? 0;
  const routes: [sector: string, code: string, description: string][] = [
    ['01', '001', 'Πλατεία – Ελευθερίου Βενιζέλου'],
    ['01', '002', 'Αγοράς – Εθνικής Αντιστάσεως'],
    ['01', '003', 'Σταθμός – Βιομηχανική ζώνη'],
    ['02', '001', 'Νεάπολη'],
    ['02', '002', 'Προφήτη Ηλία'],
    ['03', '001', 'Νέα Ζίχνη – οικισμός'],
    ['04', '001', 'Άνω Πορόια – οικισμός'],
  ];
  await tx.insert(waterRoutes).values(
    routes.map(([sector, code, description], i) => ({
      companyId,
      sectorId: sectorId(sector),
      code,
      description,
      readingOrder: (i + 1) * 10,
      ...user,
    })),
  );
  await tx.insert(waterAreas).values(
    coded([
      ['AE', 'Αγία Ελένη'],
      ['NZ', 'Νέα Ζίχνη'],
      ['AP', 'Άνω Πορόια'],
      ['KP', 'Κάτω Πορόια'],
    ]),
  );
  await tx.insert(waterBuildings).values(
    coded([
      ['K01', 'Πολυκατοικία Βενιζέλου 12'],
      ['K02', 'Πολυκατοικία Αγοράς 5'],
      ['K03', 'Εργατικές κατοικίες Νεάπολης'],
    ]),
  );
  await tx.insert(waterPropertyUsages).values(
    coded([
      ['OIK', 'Οικιακή'],
      ['EPA', 'Επαγγελματική'],
      ['KOI', 'Κοινόχρηστοι χώροι'],
      ['DIM', 'Δημοτική'],
      ['AGR', 'Αγροτική – άρδευση'],
      ['OIKO', 'Οικοδομική (εργοταξιακή)'],
    ]),
  );
  await tx.insert(waterConnectionTypes).values(
    coded([
      ['KAN', 'Κανονική παροχή'],
      ['PRO', 'Προσωρινή παροχή'],
      ['PYR', 'Πυροσβεστική παροχή'],
    ]),
  );
  await tx.insert(waterSewerageIndicators).values(
    coded([
      ['SYN', 'Συνδεδεμένο στην αποχέτευση'],
      ['MSY', 'Μη συνδεδεμένο'],
      ['BOT', 'Βόθρος'],
    ]),
  );
  await tx.insert(waterPipeDiameters).values(
    coded([
      ['12', '1/2" (DN15)'],
      ['34', '3/4" (DN20)'],
      ['1', '1" (DN25)'],
      ['112', '1 1/2" (DN40)'],
      ['2', '2" (DN50)'],
    ]),
  );
  await tx.insert(waterMeterTypes).values([
    {
      ...coded([['ZEN15', 'Zenner MNK-N DN15']])[0],
      meterKind: meterKinds.analog,
      diameter: 'DN15',
      digits: 5,
    },
    {
      ...coded([['ITR20', 'Itron Aquadis+ DN20']])[0],
      meterKind: meterKinds.analog,
      diameter: 'DN20',
      digits: 5,
    },
    {
      ...coded([['KAM15', 'Kamstrup flowIQ 2200 DN15']])[0],
      meterKind: meterKinds.amr,
      diameter: 'DN15',
      digits: 6,
    },
    {
      ...coded([['SEN40', 'Sensus WP-Dynamic DN40']])[0],
      meterKind: meterKinds.digital,
      diameter: 'DN40',
      digits: 7,
    },
  ] as (typeof waterMeterTypes.$inferInsert)[]);
  await tx.insert(waterSpecialRegulations).values([
    {
      ...coded([['KOIN', 'Κοινωνικό τιμολόγιο']])[0],
      requiredDocuments: 'Εκκαθαριστικό φόρου εισοδήματος, βεβαίωση ΚΕΑ',
    },
    { ...coded([['AMEA', 'ΑμεΑ (67% και άνω)']])[0], requiredDocuments: 'Γνωμάτευση ΚΕΠΑ σε ισχύ' },
    { ...coded([['POLY', 'Πολύτεκνοι']])[0], requiredDocuments: 'Πιστοποιητικό πολυτεκνίας ΑΣΠΕ' },
    { ...coded([['EYP', 'Ευπαθείς ομάδες']])[0], requiredDocuments: 'Απόφαση Διοικητικού Συμβουλίου' },
  ] as (typeof waterSpecialRegulations.$inferInsert)[]);

  // Billing every four months; the policy needs the company's periodicity row.
  let [periodicity] = await tx
    .select({ id: periodicities.id })
    .from(periodicities)
    .where(eq(periodicities.companyId, companyId));
  if (!periodicity) {
    [periodicity] = await tx
      .insert(periodicities)
      .values({ companyId, periodicityType: 4, periods: 3, startyear: 2026, startperiod: 1, ...user })
      .returning({ id: periodicities.id });
  }
  await tx.insert(waterInvoicePolicies).values({
    companyId,
    description: 'Τετραμηνιαία τιμολόγηση 2026',
    fromdate: '2026-01-01',
    bonusdays: 5,
    expiredays: 30,
    minConsumption: 5,
    envtax: '0.0500',
    resourcetax: '0.0350',
    periodicityId: periodicity?.id ?? 0,
    ...user,
  });
  // Sector (2) – route (3) – consumer number (5): e.g. '01-001-  125'.
  await tx.insert(waterEncodingCodes).values({
    companyId,
    levels: 3,
    level1: 2,
    level2: 3,
    level3: 5,
    leveltable1: 1,
    leveltable2: 2,
    separator: '-',
    ...user,
  });
}
