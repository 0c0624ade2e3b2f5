import { registerCatalogs } from '../../../i18n/index.ts';
import el from './el.json';
import en from './en.json';

// The panel's texts load with the first screen that imports, not with the app's shell.
registerCatalogs({ el, en });
