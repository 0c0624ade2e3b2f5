import el from '@protocol/contracts/i18n/lists/el.json';
import en from '@protocol/contracts/i18n/lists/en.json';
import { registerCatalogs } from './index.ts';

// The labels of the lists' fields, shared with the server's exports.
registerCatalogs({ el, en });
