import { DEYA_AA_SETTING } from '@protocol/contracts';
import type { Tx } from '../../db/client.ts';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import { putGeneralSetting } from './settings.service.ts';
import { addresses } from './settings-tables.schema.ts';

/** The streets of the demo utility's town, as its water service and online forms name them. */
const STREETS = [
  ['Ελευθερίου Βενιζέλου', 'Κέντρο'],
  ['Εθνικής Αντιστάσεως', 'Κέντρο'],
  ['Αγοράς', 'Κέντρο'],
  ['Ερμού', 'Κέντρο'],
  ['Αθηνάς', 'Κέντρο'],
  ['Σταθμού', 'Βιομηχανική ζώνη'],
  ['25ης Μαρτίου', 'Νεάπολη'],
  ['Μεγάλου Αλεξάνδρου', 'Νεάπολη'],
  ['Προφήτη Ηλία', 'Προφήτης Ηλίας'],
  ['Αγίου Δημητρίου', 'Προφήτης Ηλίας'],
] as const;

export async function settingsDemoData(tx: Tx, companyId: number): Promise<void> {
  await putGeneralSetting(tx, companyId, DEYA_AA_SETTING, '1', SYSTEM_USER);
  await tx.insert(addresses).values(
    STREETS.map(([street, area]) => ({
      companyId,
      street,
      area,
      postalCode: '62100',
      municipality: 'Αγίας Ελένης',
      createuser: SYSTEM_USER,
    })),
  );
}
