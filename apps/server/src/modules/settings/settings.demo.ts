import { CUSTOM_EXPORT_SETTING_PREFIX, DEYA_AA_SETTING } from '@protocol/contracts';
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

/**
 * The demo utility's own export (README): the catalogue of its online forms, by title, as the CSV it
 * publishes; each list's export menu offers it beside the standard formats.
 */
export const DEMO_CUSTOM_EXPORT = {
  name: `${CUSTOM_EXPORT_SETTING_PREFIX}forms_catalogue`,
  label: 'Κατάλογος ηλεκτρονικών αιτήσεων',
  uri: '/api/onlineForms/search?format=csv&title=Κατάλογος ηλεκτρονικών αιτήσεων&columns=form_id,title&sort=title,ASC',
} as const;

export async function settingsDemoData(tx: Tx, companyId: number): Promise<void> {
  await putGeneralSetting(tx, companyId, DEYA_AA_SETTING, '1', SYSTEM_USER);
  await putGeneralSetting(tx, companyId, DEMO_CUSTOM_EXPORT.name, DEMO_CUSTOM_EXPORT.uri, SYSTEM_USER);
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
