import { registerCatalogs } from '../../../i18n/index.ts';
import el from './el.json';
import en from './en.json';

// Texts of the signed-in shell's own parts (the bell): loaded with the shell, not by the sign-in page.
registerCatalogs({ el, en });
