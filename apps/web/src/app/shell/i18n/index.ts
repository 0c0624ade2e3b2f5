import { registerCatalogs } from '../../../i18n/index.ts';
import el from './el.json';
import en from './en.json';

// Texts of the signed-in shell (menu, app bar, account menu, dashboard, /new, about, the bell): loaded
// with the shell's routes, not by the sign-in page.
registerCatalogs({ el, en });
