import { registerCatalogs } from '../../../i18n/index.ts';
import el from './shell.el.json';
import en from './shell.en.json';

// The menu entries, the /new entry and the search group: loaded with the shell (feature.tsx), so
// they read right on every page, not only once a forms page has loaded the rest.
registerCatalogs({ el, en });
