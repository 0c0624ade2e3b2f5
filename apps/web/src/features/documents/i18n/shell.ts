import { registerCatalogs } from '../../../i18n/index.ts';
import el from './shell.el.json';
import en from './shell.en.json';

// The documents' dashboard tiles and /new entries: loaded with the shell (feature.tsx), not by the
// sign-in page.
registerCatalogs({ el, en });
