/**
 * The demo operators the README lists, in the order of DemoContext.operators: two clerks (protocol
 * office; water department), the accountant (finance and myDATA) and the water service's supervisor
 * (closes readout periods, keeps tariffs and parametrics), so every screen can be tried.
 */
export const DEMO_OPERATORS = [
  {
    username: 'mpapadopoulou',
    password: 'Demo-2026!',
    firstname: 'Μαρία',
    lastname: 'Παπαδοπούλου',
    email: 'm.papadopoulou@deya-example.gr',
  },
  {
    username: 'gnikolaou',
    password: 'Demo-2026!',
    firstname: 'Γιώργος',
    lastname: 'Νικολάου',
    email: 'g.nikolaou@deya-example.gr',
  },
  {
    username: 'eantoniou',
    password: 'Demo-2026!',
    firstname: 'Ελένη',
    lastname: 'Αντωνίου',
    email: 'e.antoniou@deya-example.gr',
  },
  {
    username: 'kdimitriou',
    password: 'Demo-2026!',
    firstname: 'Κωνσταντίνος',
    lastname: 'Δημητρίου',
    email: 'k.dimitriou@deya-example.gr',
  },
] as const;

/** The demo company's ΑΦΜ: a made-up one with a valid check digit, the issuer of its myDATA documents. */
export const DEMO_COMPANY_VATNUMBER = '099888777';
