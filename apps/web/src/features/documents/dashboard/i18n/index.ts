import { registerCatalogs } from '../../../../i18n/index.ts';
import el from './el.json';
import en from './en.json';

// Only the cards' texts: the dashboard need not load the documents screens' catalog.
registerCatalogs({ el, en });
