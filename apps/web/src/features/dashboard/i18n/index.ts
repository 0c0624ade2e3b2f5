import { registerCatalogs } from '../../../i18n/index.ts';
import el from './el.json';
import en from './en.json';

// The cards' texts come with the dashboard's chunk; the greeting and tiles are in the shell catalog.
registerCatalogs({ el, en });
