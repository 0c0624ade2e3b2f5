import { BOOK_TYPE_OF_KIND, type FormElement, type FormRow, type FormStructure } from '@protocol/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import type { DemoContext } from '../../platform/module.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { onlineForms, onlineFormVersions } from './forms.schema.ts';

/*
 * The demo company's two ready applications, written in the builder's own format (rows with
 * elements1…N), published, online and registered automatically in the incoming book.
 */

/** The fields' labels on the public forms in English (/en/forms/…). */
const englishLabels: Record<string, string> = {
  lastname: 'Last name',
  vatnumber: 'Tax number (ΑΦΜ)',
  email: 'E-mail',
  firstname: 'First name',
  mobile: 'Mobile phone',
  address: 'Postal address',
  propertyAddress: 'Street of the property',
  propertyNumber: 'Number',
  use: 'Use',
  zipcode: 'Postal code',
  area: 'Area (m²)',
  isOwner: 'I own the property',
  lease: "Lease or the owner's authorisation",
  buildingPermit: 'Building permit',
  consent: 'I agree to the processing of my data for this application',
  kind: 'Kind',
  location: 'Place (street, number, area)',
  consumerCode: 'Supply code',
  description: 'Description',
  photo: 'Photo',
  fullname: 'Full name',
};

const field = (
  type: FormElement['type'],
  name: string,
  label: string,
  validation = '',
  extra: Partial<FormElement> = {},
): FormElement => ({
  type,
  items: [],
  validation,
  conditionals: [],
  ...extra,
  options: { field: name, label, labelEn: englishLabels[name], ...extra.options },
});
const text = (type: 'heading' | 'paragraph', value: string): FormElement => ({
  type,
  options: { text: value },
  items: [],
  validation: '',
  conditionals: [],
});
const row = (name: string, grid: number, columns: FormElement[][], extra: Partial<FormRow> = {}): FormRow => {
  const r: FormRow = {
    type: 'inputLayout',
    name,
    showTitle: true,
    theme: 'Plain',
    grid,
    conditionals: [],
    ...extra,
  };
  columns.forEach((elements, i) => {
    r[`elements${i + 1}`] = elements;
  });
  return r;
};

const applicantRow = row('Στοιχεία αιτούντος', 2, [
  [
    field('text', 'lastname', 'Επώνυμο', 'required|max:100'),
    field('afm', 'vatnumber', 'ΑΦΜ', 'required'),
    field('email', 'email', 'E-mail', 'required'),
  ],
  [
    field('text', 'firstname', 'Όνομα', 'required|max:100'),
    field('phone', 'mobile', 'Κινητό τηλέφωνο', 'required|callback:greekMobile'),
    field('text', 'address', 'Διεύθυνση αλληλογραφίας', 'max:200'),
  ],
]);

export const newConnectionForm: FormStructure = [
  {
    ...row('', 1, [
      [
        text(
          'paragraph',
          'Συμπληρώστε την αίτηση για νέα σύνδεση με το δίκτυο ύδρευσης. Θα επικοινωνήσουμε μαζί σας για την αυτοψία.',
        ),
      ],
    ]),
    type: 'titledLayout',
    showTitle: false,
  },
  applicantRow,
  row('Ακίνητο', 2, [
    [
      field('autocomplete', 'propertyAddress', 'Οδός ακινήτου', 'required|max:200', {
        options: { field: 'propertyAddress', label: 'Οδός ακινήτου', source: 'streets' },
      }),
      field('text', 'propertyNumber', 'Αριθμός', 'max:10'),
      field('select', 'use', 'Χρήση', 'required', {
        items: [
          { value: 'home', label: 'Οικιακή' },
          { value: 'business', label: 'Επαγγελματική' },
          { value: 'construction', label: 'Οικοδομική' },
        ],
      }),
    ],
    [
      field('text', 'zipcode', 'Ταχυδρομικός κώδικας', 'required|callback:postalCode'),
      field('decimal', 'area', 'Εμβαδόν (m²)', 'required|min:1|max:100000'),
    ],
  ]),
  row('Δικαιολογητικά', 1, [
    [
      field('checkbox', 'isOwner', 'Είμαι ο ιδιοκτήτης του ακινήτου'),
      field('file', 'lease', 'Μισθωτήριο ή εξουσιοδότηση ιδιοκτήτη', 'required', {
        options: {
          field: 'lease',
          label: 'Μισθωτήριο ή εξουσιοδότηση ιδιοκτήτη',
          maxSizeMb: 10,
          accept: ['pdf', 'jpg', 'png'],
        },
        conditionals: [{ field: 'isOwner', operator: 'notEquals', value: 'true' }],
      }),
      field('file', 'buildingPermit', 'Οικοδομική άδεια', 'required', {
        options: { field: 'buildingPermit', label: 'Οικοδομική άδεια', maxSizeMb: 10, accept: ['pdf'] },
      }),
      field('checkbox', 'consent', 'Συμφωνώ με την επεξεργασία των στοιχείων μου για την αίτηση', 'required'),
    ],
  ]),
];

export const leakReportForm: FormStructure = [
  {
    ...row('', 1, [
      [
        text(
          'paragraph',
          'Δηλώστε βλάβη ή διαρροή στο δίκτυο. Για επείγοντα περιστατικά καλέστε και τη βάρδια της ΔΕΥΑ.',
        ),
      ],
    ]),
    type: 'titledLayout',
    showTitle: false,
  },
  row('Τι συμβαίνει', 2, [
    [
      field('radio', 'kind', 'Είδος', 'required', {
        items: [
          { value: 'leak', label: 'Διαρροή στον δρόμο' },
          { value: 'noWater', label: 'Δεν έχω νερό' },
          { value: 'meter', label: 'Βλάβη υδρομέτρου' },
          { value: 'quality', label: 'Ποιότητα νερού' },
        ],
      }),
      field('text', 'location', 'Σημείο (οδός, αριθμός, περιοχή)', 'required|max:200'),
    ],
    [
      field('text', 'consumerCode', 'Κωδικός παροχής', 'max:30', {
        conditionals: [{ field: 'kind', operator: 'equals', value: 'meter' }],
      }),
      field('textarea', 'description', 'Περιγραφή', 'required|max:2000'),
      field('file', 'photo', 'Φωτογραφία', '', {
        options: { field: 'photo', label: 'Φωτογραφία', maxSizeMb: 8, accept: ['jpg', 'jpeg', 'png'] },
      }),
    ],
  ]),
  row('Επικοινωνία', 2, [
    [field('text', 'fullname', 'Ονοματεπώνυμο', 'required|max:150'), field('email', 'email', 'E-mail')],
    [field('phone', 'mobile', 'Τηλέφωνο', 'required')],
  ]),
];

export async function seedDemoForms(tx: Tx, demo: DemoContext): Promise<void> {
  const [book] = await tx
    .select({ id: protocolBooks.id })
    .from(protocolBooks)
    .where(
      and(
        eq(protocolBooks.companyId, demo.companyId),
        eq(protocolBooks.booktype, BOOK_TYPE_OF_KIND[0]),
        eq(protocolBooks.isActive, true),
      ),
    )
    .orderBy(asc(protocolBooks.year))
    .limit(1);
  const forms = [
    {
      formId: 'nea-syndesi-ydreusis',
      title: 'Αίτηση νέας σύνδεσης ύδρευσης',
      description: 'Αίτηση για νέα παροχή νερού σε ακίνητο της περιοχής μας.',
      successNote: 'Η αίτησή σας καταχωρίστηκε. Θα λάβετε ενημέρωση στο e-mail σας.',
      isPayment: true,
      fee: '50.00',
      structure: newConnectionForm,
    },
    {
      formId: 'dilosi-vlavis',
      title: 'Δήλωση βλάβης / διαρροής',
      description: 'Ενημερώστε μας για βλάβη ή διαρροή στο δίκτυο ύδρευσης.',
      successNote: 'Ευχαριστούμε για τη δήλωση. Το συνεργείο θα ενημερωθεί άμεσα.',
      isPayment: false,
      fee: null,
      structure: leakReportForm,
    },
  ];
  for (const form of forms) {
    const api = JSON.stringify(form.structure);
    const [created] = await tx
      .insert(onlineForms)
      .values({
        companyId: demo.companyId,
        formId: form.formId,
        title: form.title,
        description: form.description,
        successNote: form.successNote,
        status: 1,
        isOnline: true,
        isPayment: form.isPayment,
        fee: form.fee,
        autoNr: book !== undefined,
        bookId: book?.id ?? null,
        assignTo: demo.operators[0] ?? null,
        api,
        version: 1,
        createUserId: demo.admin.userId,
        createuser: SYSTEM_USER,
      })
      .returning({ id: onlineForms.id });
    if (created) {
      await tx
        .insert(onlineFormVersions)
        .values({ formId: created.id, version: 1, api, publishedBy: SYSTEM_USER });
    }
  }
}
