import { registerCatalogs } from '../../../i18n/index.ts';
import '../../../i18n/lists.ts';
import el from './el.json';
import en from './en.json';

registerCatalogs({ el, en });
